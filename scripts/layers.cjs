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
  ['insights'],
  ['fleet'],
  ['cli'],
];

/**
 * core/'s subsystems, lowest first, by the same rule: the throttle and the reading of a response;
 * the transport (which uses both) and pagination (which reads responses); the calls built on both.
 * Every file of core/ sits in one of them.
 */
const CORE_LAYERS = [['rate-limit', 'response'], ['transport', 'pagination'], ['calls']];

/**
 * Upward imports that a branch in flight is untying, as [from, to]: reported as warnings, not
 * errors, until it is merged; empty when none is. (sync → insights was one: the stores created the
 * views until insights came to own them as a store extension.)
 */
const PENDING = [];

module.exports = { CORE_LAYERS, LAYERS, PENDING };
