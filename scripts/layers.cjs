// The layers of src/, in one place: .dependency-cruiser.cjs turns them into the rules of
// `npm run circles`, docs/development.md ("Layers") draws them, and test/tooling/layers.test.ts
// keeps the three the same and fails on a src/ folder that is in no layer.

/**
 * Lowest first: a folder imports only folders of lower layers, never one of its own layer or above.
 * `''` is the entry files at the root of src/ (client.ts, index.ts, schemas.ts).
 */
const LAYERS = [
  ['wire'],
  ['errors'],
  ['internal'],
  ['options'],
  ['core'],
  ['resources'],
  [''],
  ['redis', 'otel', 'webhooks', 'testing', 'sync'],
  ['insights', 'fleet'],
  ['cli'],
];

/**
 * core/'s subsystems, lowest first, by the same rule: the throttle and the reading of a response;
 * the transport (which uses both) and pagination (which reads responses); the calls built on both.
 * Every file of core/ sits in one of them.
 */
const CORE_LAYERS = [['rate-limit', 'response'], ['transport', 'pagination'], ['calls']];

/**
 * Upward imports that another branch is untying, as [from, to]: reported as warnings, not errors,
 * until it is merged. sync/'s stores create insights/' views (issue 24 §2: the sqlstores slice lets
 * insights own them). After that merge, empty this list: the layer rule and the folder-circle rule
 * then fail on such an import.
 */
const PENDING = [['sync', 'insights']];

module.exports = { CORE_LAYERS, LAYERS, PENDING };
