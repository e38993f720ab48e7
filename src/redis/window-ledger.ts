import type { Redis } from 'ioredis';

/** Window records outlive their window by this much, so late processes still see what happened. */
export const MARKER_TTL_MS = 60_000;

/**
 * One round trip: keep the lowest `remaining` reported for a window, and, when asked, claim the
 * window's loading (`SET NX`) and publish it as the newest loaded window.
 * KEYS: lowest remaining, claim, newest window. ARGV: remaining, TTL (ms), '1' to claim, reset (ms).
 */
const RECORD = `
local lowest = tonumber(redis.call('get', KEYS[1]))
if lowest == nil or tonumber(ARGV[1]) < lowest then redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2]) end
if ARGV[3] ~= '1' or not redis.call('set', KEYS[2], '1', 'PX', ARGV[2], 'NX') then return 0 end
if (tonumber(redis.call('get', KEYS[3])) or 0) < tonumber(ARGV[4]) then redis.call('set', KEYS[3], ARGV[4], 'PX', ARGV[2]) end
return 1
`;

/**
 * What the fleet has learnt about each rate window, in Redis: the lowest `remaining` any response
 * reported, who loads the window, and the newest window loaded.
 *
 * The server counts requests in order, so within a window a lower `remaining` is a later count.
 * A response is recorded before its request leaves bottleneck's cluster-wide `running`; so a
 * request the server counted after the lowest recorded one is either still running or not yet
 * admitted. That is what lets the loader compute the window's budget from numbers that cannot
 * miss a request, however long its own response took to get here.
 *
 * @example
 * ```ts
 * const ledger = new WindowLedger(redis, 'seo-visibility:5d6c…');
 * const mustLoad = await ledger.record(resetMs, 17, true);
 * ```
 * @internal
 */
export class WindowLedger {
  readonly #client: Redis;
  readonly #id: string;
  /** The Redis key of the newest loaded window's reset (ms). */
  readonly #windowKey: string;

  constructor(client: Redis, id: string) {
    this.#client = client;
    this.#id = id;
    this.#windowKey = `${id}:window`;
  }

  /**
   * Records a response's `remaining` for the window ending at `resetMs`. With `claim`, returns
   * whether this caller is the first to claim the window, and so must load its budget.
   */
  async record(resetMs: number, remaining: number, claim: boolean): Promise<boolean> {
    const ttl = Math.max(1, resetMs + MARKER_TTL_MS - Date.now());
    const keys = [`${this.#id}:remaining:${resetMs}`, `${this.#id}:window:${resetMs}`, this.#windowKey];
    const claimed = await this.#client.eval(RECORD, keys.length, ...keys, remaining, ttl, claim ? '1' : '0', resetMs);
    return claimed === 1;
  }

  /** Lets the window ending at `resetMs` be claimed again, so that the next response loads its budget anew. */
  async release(resetMs: number): Promise<void> {
    await this.#client.del(`${this.#id}:window:${resetMs}`);
  }

  /** The lowest `remaining` recorded for the window ending at `resetMs` (0 if its record expired). */
  async lowestRemaining(resetMs: number): Promise<number> {
    return Number(await this.#client.get(`${this.#id}:remaining:${resetMs}`));
  }

  /** The reset (ms) of the newest window loaded anywhere in the cluster, or 0. */
  async newestWindow(): Promise<number> {
    return Number(await this.#client.get(this.#windowKey)) || 0;
  }
}
