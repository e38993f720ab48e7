/**
 * A chaos account for the unit loop: the in-process simulator in chaos mode, a client on its
 * `fetch` whose logger and hooks feed an `Outputs` collector, on the faked clock.
 */
import { SeoVisibilityClient } from '../../../src/index.js';
import { type ChaosKind, createSimulator, type Simulator } from '../../../src/testing/index.js';
import { Outputs } from './secrets.js';

/** The simulator's windows, and the client's and the sync's: a 10 s window, and a day. */
export const WINDOWS = [
  { limit: 10, intervalMs: 10_000 },
  { limit: 100_000, intervalMs: 86_400_000 },
];

export interface ChaosAccount {
  sim: Simulator;
  client: SeoVisibilityClient;
  /** Another client with the same key and options (as a web handler makes one per request). */
  /** Another client on the same key; `share`: with `rateLimit.shareInProcess`, as a server making a client per request is told to. */
  another(share?: boolean): SeoVisibilityClient;
  outputs: Outputs;
  key: string;
}

/** Options of {@link chaosAccount}. */
export interface ChaosAccountOptions {
  seed: number;
  kinds?: readonly ChaosKind[];
  rate?: number;
  listItems?: number;
  listProjects?: number;
  keywords?: number;
}

/** A seeded account under chaos. The simulator's data seed is derived from the chaos seed too. */
export function chaosAccount(options: ChaosAccountOptions): ChaosAccount {
  const sim = createSimulator({
    seed: 1 + (options.seed % 97),
    keywordsPerProject: options.keywords ?? 20,
    now: () => Date.now(),
    rateLimit: { windows: WINDOWS },
    chaos: {
      seed: options.seed,
      rate: options.rate ?? 0.15,
      listItems: options.listItems ?? 0,
      listProjects: options.listProjects ?? 0,
      ...(options.kinds ? { kinds: options.kinds } : {}),
    },
  });
  const outputs = new Outputs();
  const key = sim.keys.readOnly;
  const make = (share = false) =>
    new SeoVisibilityClient({
      apiKey: key,
      baseUrl: sim.baseUrl,
      fetch: sim.fetch,
      maxRetries: 3,
      timeout: 30_000,
      retryBackoff: { initialDelay: 10, maxDelay: 200 },
      rateLimit: { windows: WINDOWS, ...(share ? { shareInProcess: true } : {}) },
      logLevel: 'debug',
      logger: {
        debug: (...args: unknown[]) => outputs.add('logger.debug', args),
        info: (...args: unknown[]) => outputs.add('logger.info', args),
        warn: (...args: unknown[]) => outputs.add('logger.warn', args),
        error: (...args: unknown[]) => outputs.add('logger.error', args),
      },
      hooks: {
        onRequest: [(info) => outputs.add('hook onRequest', info)],
        onResponse: [(info) => outputs.add('hook onResponse', info)],
        onRetry: [(info) => outputs.add('hook onRetry', info)],
        onError: [(info) => outputs.add('hook onError', info)],
      },
    });
  return { sim, client: make(), another: make, outputs, key };
}

/** 429s the API itself answered (the chaos mode's gateway 429s are not the client's doing). */
export function api429s(
  sim: Simulator,
  from = 0,
  fromEvent = 0,
): { requests: number; api429: number; gateway429: number; insideGateway: number } {
  const log = sim.requests.slice(from);
  const all429 = log.filter((r) => r.status === 429).length;
  const events = sim.chaos?.journal.slice(fromEvent).filter((e) => e.kind === 'gateway-429') ?? [];
  // Requests sent while a gateway's Retry-After had not passed: the client was told to wait.
  const inside = events.filter((e) => e.detail.startsWith('inside')).length;
  return {
    requests: log.length,
    api429: Math.max(0, all429 - events.length),
    gateway429: events.length,
    insideGateway: inside,
  };
}

/** The chaos journal as text, for a failure message. */
export function journalText(sim: Simulator, last = 12): string {
  const j = sim.chaos?.journal ?? [];
  const counts = new Map<string, number>();
  for (const e of j) counts.set(e.kind, (counts.get(e.kind) ?? 0) + 1);
  const tail = j
    .slice(-last)
    .map((e) =>
      `    run ${e.run} ${e.kind} ${e.at}: ${e.detail}`.replace(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e]/g, '·'),
    );
  return `chaos did ${[...counts].map(([k, n]) => `${k} ×${n}`).join(', ') || 'nothing'}; last events:\n${tail.join('\n')}`;
}
