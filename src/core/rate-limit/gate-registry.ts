import type { RateGate } from '../../options/rate-gate.js';

/**
 * The process-wide registry of local throttles. The rate budget belongs to the API key, not to a
 * client: clients made per incoming web request, each with its own throttle, overdraw it together
 * (300 calls through new clients met 100 × 429).
 *
 * - With `share` (`rateLimit.shareInProcess`), clients with the same key, base URL, `fetch` and
 *   windows get one gate. Without it (the default, so that clients and tests start fresh), the
 *   second live client with the same key and base URL warns once, naming the remedy.
 * - Keyed by a hash of the key, never the key itself, and per `fetch` function (the default one,
 *   or each custom one: a different fetch may be a route to a different server, a simulator).
 * - It keeps nothing alive: entries are weak references, removed once their gate is collected
 *   (every client that used it is gone), so a process making clients for ever does not grow.
 *   Where `WeakRef` is missing, nothing is shared and nothing warns.
 *
 * @example
 * ```ts
 * const gate = localGateFor({ apiKey, baseUrl, fetch: undefined, windows: 'documented' }, true, () => new LocalRateGate(DOCUMENTED_WINDOWS, { prior: true }), console);
 * ```
 * @internal
 */
export function localGateFor(
  identity: GateIdentity,
  share: boolean,
  make: () => RateGate,
  logger: { warn(message: string): void },
): RateGate {
  if (typeof WeakRef !== 'function') return make();
  const entries =
    identity.fetch === undefined ? defaultFetch : (perFetch.get(identity.fetch) ?? newMap(identity.fetch));
  const key = `${hash(identity.apiKey)} ${identity.baseUrl}`;
  const budget = `${key} ${identity.windows}`;
  if (share) {
    const known = entries.get(budget)?.deref();
    if (known) return known;
  }
  const gate = make();
  const other = entries.get(key)?.deref();
  const warned = warnedIn.get(entries) ?? warnedIn.set(entries, new Set()).get(entries)!;
  if (other && other !== gate && !share && !warned.has(key)) {
    warned.add(key);
    logger.warn(
      `seo-visibility: two clients in this process use the same API key and base URL (${identity.baseUrl}), each with its own rate budget: ` +
        'together they will overdraw the key and meet 429s. Reuse one client (or client.withOptions()), or pass rateLimit: { shareInProcess: true }.',
    );
  }
  remember(entries, key, gate);
  if (share) remember(entries, budget, gate);
  return gate;
}

/**
 * Keys (hashed) already warned about, per fetch function like the entries: once per route is enough
 * to be seen, and a custom fetch (a simulator, a test's server) starts fresh.
 */
const warnedIn = new WeakMap<Entries, Set<string>>();

function remember(entries: Entries, key: string, gate: RateGate): void {
  entries.set(key, new WeakRef(gate));
  cleanup?.register(gate, { map: entries, key });
}

/** What makes two clients one budget. @internal */
export interface GateIdentity {
  apiKey: string;
  baseUrl: string;
  fetch: typeof globalThis.fetch | undefined;
  /** The windows the gate paces on, as text (`'documented'`, or the user's). */
  windows: string;
}

type Entries = Map<string, WeakRef<RateGate>>;
const defaultFetch: Entries = new Map();
/** A custom fetch's entries go with it: nothing here keeps a fetch function alive either. */
const perFetch = new WeakMap<object, Entries>();
const cleanup =
  typeof FinalizationRegistry === 'function'
    ? new FinalizationRegistry<{ map: Entries; key: string }>(({ map, key }) => {
        // A newer gate may have taken the key since: only an entry that is dead itself goes.
        if (map.get(key)?.deref() === undefined) map.delete(key);
      })
    : undefined;

function newMap(fetch: object): Entries {
  const map: Entries = new Map();
  perFetch.set(fetch, map);
  return map;
}

/**
 * cyrb53, a fast 53-bit string hash: enough to tell keys apart in one process (the key itself is
 * never a map key, so it is not kept here after its clients are gone). Not a secret-keeping hash:
 * it never leaves the process.
 */
function hash(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}
