/**
 * The chaos suite's properties, each with the defects of issue 22 it stands guard over, so a
 * failing seed says at once whether it is a listed defect or a new one.
 */
import type { Property } from './seeds.js';

export const EXACTLY_ONCE: Property = {
  name: 'for await yields every item live throughout exactly once, or fails with a typed error',
  guards: 'issue 22 §4 "for await on a list that changes"',
};
export const SETTLES: Property = {
  name: 'every call settles within its bound (simulated time)',
  guards: 'issue 22 §2 waits that never end: clock skew ahead, slow bodies',
};
export const NO_KEY: Property = {
  name: 'no API key in any output (errors, logs, hooks, results, stored rows)',
  guards: 'issue 22 §3 "the key is redacted from messages only" (echoed in a header or meta.request_id)',
};
export const FEW_429: Property = {
  name: "the API's own 429s stay bounded, and nothing is sent inside a gateway 429's Retry-After but what was in flight",
  guards: 'issue 22 §2 clock skew behind, §4 "a gateway\'s bare 429 with Retry-After holds only its own call"',
};
export const PROTO_SAFE: Property = {
  name: 'no record handed out carries an own "__proto__" key',
  guards: 'issue 22 §5 "a record with an own __proto__ key is handed to the caller as parsed"',
};
export const TYPED_ERRORS: Property = {
  name: 'every failure is a typed SDK error (no raw TypeError or SyntaxError)',
  guards: 'api-notes: a body that is not the envelope is a typed error',
};
export const COMPLETES: Property = {
  name: 'the copy completes within a bounded number of resumed runs',
  guards: 'issue 22 §1 "a copy that stops for good"',
};
export const NO_LIVE_MARKED: Property = {
  name: 'no row live throughout a run is marked deleted',
  guards: 'issue 22 §4 "live rows marked deleted when a list shifts while it is read", project list shrink',
};
export const NONE_LOST: Property = {
  name: 'every row live throughout a run is in the store',
  guards: 'issue 22 §1 data loss, §4 list shifts',
};
export const DELETES_MARKED: Property = {
  name: 'every row deleted before a completed run is marked deleted by it',
  guards: 'issue 22 §4 project list shrink check; docs/sync-tables.md: a complete re-read marks',
};
export const SNAPSHOT_COUNTS: Property = {
  name: 'each snapshot holds exactly the rows the API served for its day',
  guards: 'issue 22 §1 "803 of 36,793 rows" (a value that stops a page), §4 snapshot date on resume',
};
export const NO_TERMINAL_CONTROL: Property = {
  name: 'no control character or bidi override from the server reaches the terminal',
  guards: 'issue 22 §3 "server text reaches the terminal raw"',
};
export const RIDES_OUT_FAULTS: Property = {
  name: 'a call whose faults are all transient (at most 2 attempts of a request, the client retries 3 times) succeeds',
  guards:
    'issue 22 §5 "a body cut mid-JSON is retried with a length header and not without one"; api-notes: GET is retried on 5xx, timeouts and connection failures',
};
export const ONE_BUDGET_PER_KEY: Property = {
  name: 'two clients with one key in one process, sharing its budget (shareInProcess), draw few 429s',
  guards: 'issue 22 §4 "two clients with one key in one process share no budget"',
};
export const NO_DOUBLE: Property = {
  name: 'no row is stored twice (one row per key per account in every current-state table)',
  guards: "issue 22 §1 exactly once; a SIGKILLed worker's account resumed by another must not write its rows again",
};
export const ONE_HOLDER: Property = {
  name: 'no two workers hold one account at once',
  guards: 'issue 22 §6 the fleet under SIGKILLs; docs/fleet.md: one account, one worker at a time',
};
