// Where a receiver remembers the events it has already taken. In memory for one process; in
// PostgreSQL (postgres-dedupe-store.ts) when several receivers share one subscription URL.
import { positiveInteger } from './positive-integer.js';

/**
 * Remembers which event keys were taken, so a repeated delivery is acknowledged without running the
 * handlers twice. `claim` must be atomic: of two receivers claiming one key at once, one wins.
 *
 * @example
 * ```ts
 * const seen = new Set<string>();
 * const setStore: WebhookDedupeStore = {
 *   async claim(key) { if (seen.has(key)) return false; seen.add(key); return true; },
 *   async release(key) { seen.delete(key); },
 * };
 * ```
 */
export interface WebhookDedupeStore {
  /**
   * Takes `key` until `expiresAt` (ms since the epoch). Resolves `true` when the key was free (never
   * seen, or its earlier claim expired before `now`), `false` for a repeat.
   */
  claim(key: string, expiresAt: number, now: number, body?: string): Promise<boolean>;
  /** Frees `key` (its handlers failed for good), so a later repeat of the delivery runs again. */
  release(key: string): Promise<void>;
  /**
   * Durable stores: the handlers of `key` finished, so its kept `body` (given to `claim`) can go.
   * With {@link WebhookDedupeStore.takeUnhandled}, an event acknowledged by a process killed before
   * its handlers finished is found again after a restart.
   */
  handled?(key: string): Promise<void>;
  /**
   * Durable stores: the bodies of events claimed before `before` whose handlers never finished, each
   * taken again at `now` (atomically: of two receivers recovering at once, one gets each).
   */
  takeUnhandled?(before: number, now: number): Promise<Array<{ key: string; body: string }>>;
  /** Closes what the store opened (a pool it created). Optional. */
  close?(): Promise<void>;
}

/** Options of {@link memoryDedupeStore}. */
export interface MemoryDedupeStoreOptions {
  /**
   * Most keys kept; past it the oldest is forgotten first, so memory stays bounded whatever the
   * traffic.
   * @default 100_000
   * @example
   * ```ts
   * memoryDedupeStore({ maxKeys: 10_000 });
   * ```
   */
  maxKeys?: number;
}

/**
 * A dedupe store in this process's memory: right for one receiver process. Keys expire with the
 * window; at most `maxKeys` are kept.
 *
 * @example
 * ```ts
 * import { createWebhookReceiver, generateWebhookSecret, memoryDedupeStore } from 'seo-visibility/webhooks';
 * const receiver = createWebhookReceiver({ secret: generateWebhookSecret(), dedupe: memoryDedupeStore({ maxKeys: 10_000 }) });
 * ```
 */
export function memoryDedupeStore(options: MemoryDedupeStoreOptions = {}): WebhookDedupeStore {
  // `?? undefined`: a null maxKeys has always meant the default here (the receiver's options refuse it).
  const maxKeys = positiveInteger('maxKeys', options.maxKeys ?? undefined, 100_000);
  // Insertion order is claim order; with one window for every key, it is also expiry order.
  const keys = new Map<string, number>();
  return {
    async claim(key, expiresAt, now) {
      for (const [oldest, expiry] of keys) {
        if (expiry > now) break;
        keys.delete(oldest);
      }
      const expiry = keys.get(key);
      if (expiry !== undefined && expiry > now) return false;
      keys.delete(key);
      keys.set(key, expiresAt);
      if (keys.size > maxKeys) keys.delete(keys.keys().next().value as string);
      return true;
    },
    async release(key) {
      keys.delete(key);
    },
  };
}
