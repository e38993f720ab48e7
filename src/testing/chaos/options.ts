import * as c from '../../internal/option-check.js';
import { CHAOS_KIND_NAMES, type ChaosKind } from './kinds.js';

/**
 * The simulator's seeded chaos mode (`createSimulator({ chaos: { seed } })`). Everything it does is
 * drawn from `seed`, the run number (`sim.chaos.nextRun()`) and each request's method, URL and
 * attempt number, never from `Math.random`: a failing seed replays exactly, whatever order
 * concurrent requests arrive in.
 *
 * @example
 * ```ts
 * import { createSimulator } from 'seo-visibility/testing';
 * const sim = createSimulator({ seed: 3, chaos: { seed: 42, rate: 0.2, kinds: ['gateway-429', 'list-drift', 'skew'] } });
 * // … run your code against sim.fetch, then:
 * sim.chaos?.nextRun(); // the next run draws a new skew, new hostile names, new drift
 * console.log(sim.chaos?.journal); // what chaos did, in order
 * ```
 */
export interface ChaosOptions {
  /** The seed every choice is drawn from. */
  seed: number;
  /**
   * Share of requests that get a request-level fault (a gateway 429, a 5xx, a cut, slow or dropped
   * body, a bomb, a key echo, hostile values). Only a request's first `faultyAttempts` attempts can get one.
   * @default 0.2
   */
  rate?: number;
  /**
   * The kinds that may happen. `bomb` is left out by default: only an HTTP client inflates it
   * (`sim.listen()`), and it costs `bombBytes` of memory in the client.
   * @default every kind but `bomb`
   */
  kinds?: readonly ChaosKind[];
  /** The largest clock skew, in ms, ahead or behind. @default 600_000 (10 minutes) */
  maxSkewMs?: number;
  /**
   * Attempts of one request (same method and URL, in one run) that can get a fault; later attempts
   * are served cleanly, so a client that retries gets through and a copy can converge.
   * @default 2
   */
  faultyAttempts?: number;
  /**
   * Anchors and content items the first project gets on top of its seeded ones, so its lists take
   * several pages of the largest size and drift can happen between them.
   * @default 0
   */
  listItems?: number;
  /**
   * Projects added to the account (active, no keywords, few backlinks), so the project list takes
   * several pages of the largest size (500) and drift can happen between them.
   * @default 0
   */
  listProjects?: number;
  /** What a bomb inflates to, in bytes. @default 67_108_864 (64 MiB) */
  bombBytes?: number;
  /** Longest pause between two chunks of a slow body, in ms. @default 2_000 */
  slowChunkMs?: number;
}

/** Chaos options with defaults applied. @internal */
export interface ResolvedChaos {
  seed: number;
  rate: number;
  kinds: ReadonlySet<ChaosKind>;
  maxSkewMs: number;
  faultyAttempts: number;
  listItems: number;
  listProjects: number;
  bombBytes: number;
  slowChunkMs: number;
}

/** The chaos option's checker, for the simulator's option table. @internal */
export const checkChaosOptions: c.Check<ChaosOptions> = c.object(
  {
    seed: c.is<number>((v) => Number.isSafeInteger(v), 'expected an integer seed'),
    rate: c.optional(c.numberIn(0, 1, ' (a share of requests)')),
    kinds: c.optional(
      c.array(c.oneOf(CHAOS_KIND_NAMES), `expected an array of chaos kinds among: ${CHAOS_KIND_NAMES.join(', ')}`),
    ),
    maxSkewMs: c.optional(c.numberIn(0, 86_400_000, ' ms')),
    faultyAttempts: c.optional(c.integerIn(0, 100)),
    listItems: c.optional(c.integerIn(0, 1_000_000)),
    listProjects: c.optional(c.integerIn(0, 100_000)),
    bombBytes: c.optional(c.integerIn(1, 4_294_967_296)),
    slowChunkMs: c.optional(c.numberIn(0, 60_000, ' ms')),
  } satisfies { [K in keyof Required<ChaosOptions>]: c.Check<ChaosOptions[K]> },
  'expected an object such as { seed: 1, rate: 0.2 }',
);

/**
 * Applies the defaults.
 * @example `resolveChaos({ seed: 1 }).rate // 0.2`
 * @internal
 */
export function resolveChaos(options: ChaosOptions): ResolvedChaos {
  return {
    seed: options.seed,
    rate: options.rate ?? 0.2,
    kinds: new Set(options.kinds ?? CHAOS_KIND_NAMES.filter((k) => k !== 'bomb')),
    maxSkewMs: options.maxSkewMs ?? 600_000,
    faultyAttempts: options.faultyAttempts ?? 2,
    listItems: options.listItems ?? 0,
    listProjects: options.listProjects ?? 0,
    bombBytes: options.bombBytes ?? 64 * 1024 * 1024,
    slowChunkMs: options.slowChunkMs ?? 2_000,
  };
}
