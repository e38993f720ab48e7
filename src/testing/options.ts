import type { SimulatorKeys } from './auth.js';
import type { Deliver } from './events.js';
import type { SimRateWindow } from './rate-limiter.js';

/**
 * Options of `createSimulator`. Every field is optional.
 *
 * @example
 * ```ts
 * const sim = createSimulator({
 *   seed: 7,
 *   rateLimit: { windows: [{ limit: 20, windowMs: 2000 }] },
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
}

/**
 * Applies defaults and rejects bad values at once (a typo should fail loudly, not silently).
 * @example `resolveOptions({ seed: 2 }).baseUrl // 'http://localhost/api/v1'`
 * @internal
 */
export function resolveOptions(options: SimulatorOptions = {}): ResolvedOptions {
  const baseUrl = (options.baseUrl ?? 'http://localhost/api/v1').replace(/\/+$/, '');
  const basePath = new URL(baseUrl).pathname.replace(/\/+$/, '');
  const keywords = options.keywordsPerProject ?? 2500;
  if (!Number.isInteger(keywords) || keywords < 0) throw new RangeError('keywordsPerProject must be a non-negative integer');
  const seed = options.seed ?? 1;
  if (!Number.isFinite(seed)) throw new RangeError('seed must be a finite number');
  const rate = options.rateLimit;
  return {
    seed,
    baseUrl,
    basePath,
    keys: options.keys ?? {},
    windows: rate === false ? false : (rate?.windows ?? [{ limit: 200, windowMs: 60_000 }, { limit: 5_000, windowMs: 3_600_000 }, { limit: 50_000, windowMs: 86_400_000 }]),
    now: options.now ?? Date.now,
    keywordsPerProject: keywords,
    latencyMs: options.latencyMs ?? 0,
    // Resolved at call time, not here: a fetch mock installed after creation is still honoured.
    deliver: options.deliver ?? ((url, init) => globalThis.fetch(url, init)),
    deliveryTimeoutMs: options.deliveryTimeoutMs ?? 5_000,
    plan: { active: options.plan?.active ?? true, manageUrl: options.plan?.manageUrl ?? 'https://app.seo-visibility.example/settings/billing' },
  };
}
