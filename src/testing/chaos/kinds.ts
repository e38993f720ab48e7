/**
 * The chaos mode's kinds of fault, each tied to the class of the attack catalogue it stands for, so
 * a new class of defect becomes a new kind here rather than a new hand-written test per instance.
 */

/**
 * One kind of chaos. Per run: `skew`, `hostile-names`, `wide-record`. Per request: the others.
 * - `skew`: the server's clock minutes ahead or behind: its `Date` header and `meta.rate_limit.reset` shifted.
 * - `gateway-429`: a CDN's bare `text/plain` 429 with `Retry-After`, before the API; until that
 *   time has passed on the simulator's clock, the gateway answers every request so (as a CDN's
 *   limit does). With a frozen `now`, give the clock a way to move, or the window never ends.
 * - `server-error`: a 500/502/503 error envelope, a proxy's HTML 502, or a success envelope with status 500.
 * - `drop`: the connection is dropped (no response).
 * - `cut-body`: JSON cut mid-body, with a `Content-Length` that promises more, or without one.
 * - `slow-body`: the body trickled in small chunks, with pauses (timers: fake them to run fast).
 * - `bomb`: a brotli body that inflates to `bombBytes` (only an HTTP client inflates it: `sim.listen()`).
 * - `list-drift`: items of a paged list (anchors, content, projects) deleted, inserted or reordered
 *   between its pages and between runs; the simulator's truth changes with it.
 * - `type-change`: a field the server added that is a number on one page, `"n/a"` on the next, an object after.
 * - `hostile-names`: new fields named `group`, `order`, `Keyword` beside `keyword`, `net-change`, quotes, an own `__proto__`.
 * - `wide-record`: records with 1,700 fields.
 * - `hostile-values`: NUL, lone surrogates, terminal escape sequences in text; `""` or `2026-02-30` where a date is documented.
 * - `key-echo`: the caller's key echoed back in a response header and in `meta.request_id`.
 *
 * @example `createSimulator({ chaos: { seed: 7, kinds: ['list-drift', 'skew'] satisfies ChaosKind[] } })`
 */
export type ChaosKind =
  | 'skew'
  | 'gateway-429'
  | 'server-error'
  | 'drop'
  | 'cut-body'
  | 'slow-body'
  | 'bomb'
  | 'list-drift'
  | 'type-change'
  | 'hostile-names'
  | 'wide-record'
  | 'hostile-values'
  | 'key-echo';

/** What a kind stands for: its class in the attack catalogue, and when it is drawn. @example `CHAOS_KINDS['gateway-429'].scope // 'request'` */
export interface KindInfo {
  /** The attack catalogue's section and class it covers. */
  catalogue: string;
  /** Drawn once per run, or for each request. */
  scope: 'run' | 'request';
}

/**
 * Every kind, with its catalogue class. The compiler keeps this table complete (a kind added to
 * `ChaosKind` without a row here does not build).
 * @example `CHAOS_KINDS.skew.catalogue // 'Time: clocks that disagree'`
 */
export const CHAOS_KINDS: { readonly [K in ChaosKind]: KindInfo } = {
  skew: { catalogue: 'Time: clocks that disagree', scope: 'run' },
  'gateway-429': { catalogue: 'The server lies: envelopes (a bare text/plain 429 with Retry-After)', scope: 'request' },
  'server-error': { catalogue: 'The server lies: envelopes (success body with a 500, HTML 502)', scope: 'request' },
  drop: { catalogue: 'Bodies / concurrency: a dropped connection', scope: 'request' },
  'cut-body': { catalogue: 'The server lies: bodies cut mid-JSON with and without a length', scope: 'request' },
  'slow-body': { catalogue: 'The server lies: bodies trickled; Time: waits with no bound', scope: 'request' },
  bomb: { catalogue: 'The server lies: bodies (a compression bomb)', scope: 'request' },
  'list-drift': {
    catalogue: 'The server lies: pages (items inserted or deleted while a list is read, a total that moves)',
    scope: 'request',
  },
  'type-change': { catalogue: 'The server lies: values (a field that changes type between pages)', scope: 'request' },
  'hostile-names': {
    catalogue: 'The server lies: names (group, order, Keyword beside keyword, quotes, __proto__)',
    scope: 'run',
  },
  'wide-record': { catalogue: 'The server lies: values (a 1,700-field record)', scope: 'run' },
  'hostile-values': {
    catalogue:
      'The server lies: values (NUL, lone surrogates, "" or invalid dates); Secrets: text rendered in a terminal',
    scope: 'request',
  },
  'key-echo': { catalogue: 'Secrets: the key echoed back in a header and a request id', scope: 'request' },
};

/** Every kind's name. @example `createSimulator({ chaos: { seed: 1, kinds: CHAOS_KIND_NAMES } }) // the bomb too` */
export const CHAOS_KIND_NAMES = Object.keys(CHAOS_KINDS) as ChaosKind[];
