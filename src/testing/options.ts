import * as c from '../internal/option-check.js';
import { windowShape } from '../options/check-options.js';
import type { SimulatorKeys } from './auth.js';
import type { Deliver } from './events.js';
import { DEFAULT_RATE_WINDOWS, type SimRateWindow } from './rate-limiter.js';
import { type ChaosOptions, type ResolvedChaos, checkChaosOptions, resolveChaos } from './chaos/options.js';

/**
 * Options of `createSimulator`. Every field is optional.
 *
 * @example
 * ```ts
 * const sim = createSimulator({
 *   seed: 7,
 *   rateLimit: { windows: [{ limit: 20, intervalMs: 2000 }] },
 *   now: () => clock,            // injectable clock
 *   keywordsPerProject: 100_000, // rows are generated lazily
 * });
 * ```
 */
export interface SimulatorOptions {
  /**
   * Seed of the generated data. Same seed (and same start time) ⇒ identical data; ids, names and
   * numbers do not depend on the start time at all, dates are relative to it.
   * @default 1
   */
  seed?: number;
  /**
   * Base URL served by `sim.fetch` and, by default, `mswHandlers(sim)`; must end in the API's base path.
   * Only its path (e.g. `/api/v1`) is used for routing by `sim.handle`.
   * @default 'http://localhost/api/v1'
   */
  baseUrl?: string;
  /** Override one or both API keys (default: derived from the seed, `sv_live_rw_…`/`sv_live_ro_…`). */
  keys?: Partial<SimulatorKeys>;
  /**
   * Per-key fixed rate-limit windows, or `false` to disable limiting (responses still carry
   * `meta.rate_limit`, always full).
   * @default { windows: [200/min, 5000/h, 50000/day] }
   */
  rateLimit?: { windows?: SimRateWindow[] } | false;
  /**
   * How many times faster the rate windows run than they say: `60` makes the documented minute
   * last a second, the hour a minute and the day 24 minutes, as `seo-visibility sync --simulator`
   * does, so a whole sync takes seconds and a 429 waits a second, not a minute. The windows that
   * result are `sim.rateWindows`: give them to the client (and to a sync) so it paces itself on them.
   *
   * ```ts
   * const sim = createSimulator({ speedup: 60 });
   * const client = new SeoVisibilityClient({ apiKey: sim.keys.readOnly, baseUrl: sim.baseUrl, fetch: sim.fetch, rateLimit: { windows: sim.rateWindows } });
   * ```
   * @default 1
   */
  speedup?: number;
  /**
   * The wall clock, in epoch ms. The simulator clock is `now() + total advanced`.
   * @default Date.now
   */
  now?: () => number;
  /**
   * Keywords tracked by the first project (others track at most 320). Rows are derived on demand,
   * so 100,000 costs no memory.
   * @default 2500
   */
  keywordsPerProject?: number;
  /** Real delay added before every response, in ms. @default 0 */
  latencyMs?: number;
  /** Sends webhook deliveries. @default globalThis.fetch */
  deliver?: Deliver;
  /** Time-out of one delivery, in ms. @default 5000 */
  deliveryTimeoutMs?: number;
  /**
   * What project creation reports as `plan`.
   * @default { active: true, manageUrl: 'https://app.seo-visibility.example/settings/billing' }
   */
  plan?: { active?: boolean; manageUrl?: string };
  /**
   * The seeded chaos mode: per run and per request, clock skew, gateway 429s, 5xx and cut, slow or
   * dropped bodies, lists that change between pages, fields that change type, hostile field names
   * and values, echoed keys (see `ChaosOptions`). Off by default. Same seed ⇒ same chaos.
   *
   * ```ts
   * const sim = createSimulator({ seed: 1, chaos: { seed: 42, rate: 0.2 } });
   * // run the code under test, then: sim.chaos?.nextRun(); sim.chaos?.journal
   * ```
   */
  chaos?: ChaosOptions;
}

/** Options with defaults applied. @internal */
export interface ResolvedOptions {
  seed: number;
  baseUrl: string;
  basePath: string;
  keys: Partial<SimulatorKeys>;
  windows: SimRateWindow[] | false;
  now: () => number;
  keywordsPerProject: number;
  latencyMs: number;
  deliver: Deliver;
  deliveryTimeoutMs: number;
  plan: { active: boolean; manageUrl: string };
  chaos: ResolvedChaos | undefined;
}

/** The longest duration an option may take: a day, as for the client's options. */
const MAX_MS = 86_400_000;
const isFalse = (v: unknown): v is false => v === false;
const windows: c.Check<SimRateWindow[]> = (v, path) => {
  c.array(
    c.object(windowShape, 'expected a window { limit, intervalMs }'),
    'expected an array of windows { limit, intervalMs }',
  )(v, path);
  if ((v as unknown[]).length === 0)
    c.is(() => false, 'expected at least one window (or rateLimit: false for no limits)')(v, path);
};
const url: c.Check<string> = c.is(
  (v) => typeof v === 'string' && URL.canParse(v),
  'expected an absolute URL such as http://localhost/api/v1',
);

/**
 * The simulator's options, checked by the client's option checker: an unknown key names the
 * closest known one, and every value what is allowed. The compiler keeps the table's keys those
 * of {@link SimulatorOptions}.
 */
const simulatorShape = {
  seed: c.optional(c.is<number>((v) => Number.isFinite(v), 'expected a finite number')),
  baseUrl: c.optional(url),
  keys: c.optional(
    c.object(
      {
        readWrite: c.optional(c.string('expected the key as a string')),
        readOnly: c.optional(c.string('expected the key as a string')),
      },
      'expected an object { readWrite?, readOnly? }',
    ),
  ),
  rateLimit: c.optional(
    c.union(isFalse, c.object({ windows: c.optional(windows) }, ''), 'expected false or an object { windows? }'),
  ),
  speedup: c.optional(c.numberIn(1, 3_600, ' (times faster)')),
  now: c.optional(c.fn<() => number>('a function returning epoch milliseconds')),
  keywordsPerProject: c.optional(c.integerIn(0, Number.MAX_SAFE_INTEGER)),
  latencyMs: c.optional(c.numberIn(0, MAX_MS, ' ms')),
  deliver: c.optional(c.fn<Deliver>('a function (url, init) => Promise<Response>')),
  deliveryTimeoutMs: c.optional(c.numberIn(1, MAX_MS, ' ms')),
  plan: c.optional(
    c.object(
      {
        active: c.optional(c.is<boolean>((v) => typeof v === 'boolean', 'expected true or false')),
        manageUrl: c.optional(c.string('expected a URL as a string')),
      },
      'expected an object { active?, manageUrl? }',
    ),
  ),
  chaos: c.optional(checkChaosOptions),
} satisfies { [K in keyof Required<SimulatorOptions>]: c.Check<SimulatorOptions[K]> };
const checkSimulatorOptions = c.object(simulatorShape, 'expected an object such as { seed, speedup }');

/**
 * Applies defaults and rejects bad values at once with `InvalidArgumentError` (a typo should fail
 * loudly, not silently).
 * @example `resolveOptions({ seed: 2 }).baseUrl // 'http://localhost/api/v1'`
 * @internal
 */
export function resolveOptions(options: SimulatorOptions = {}): ResolvedOptions {
  checkSimulatorOptions(options, '');
  const baseUrl = (options.baseUrl ?? 'http://localhost/api/v1').replace(/\/+$/, '');
  const basePath = new URL(baseUrl).pathname.replace(/\/+$/, '');
  const rate = options.rateLimit;
  const speedup = options.speedup ?? 1;
  return {
    seed: options.seed ?? 1,
    baseUrl,
    basePath,
    keys: options.keys ?? {},
    windows:
      rate === false
        ? false
        : (rate?.windows ?? DEFAULT_RATE_WINDOWS).map((w) => ({ limit: w.limit, intervalMs: w.intervalMs / speedup })),
    now: options.now ?? Date.now,
    keywordsPerProject: options.keywordsPerProject ?? 2500,
    latencyMs: options.latencyMs ?? 0,
    // Resolved at call time, not here: a fetch mock installed after creation is still honoured.
    deliver: options.deliver ?? ((url, init) => globalThis.fetch(url, init)),
    deliveryTimeoutMs: options.deliveryTimeoutMs ?? 5_000,
    plan: {
      active: options.plan?.active ?? true,
      manageUrl: options.plan?.manageUrl ?? 'https://app.seo-visibility.example/settings/billing',
    },
    chaos: options.chaos ? resolveChaos(options.chaos) : undefined,
  };
}
