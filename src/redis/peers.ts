import type BottleneckClass from 'bottleneck';
import type { Redis as RedisClass } from 'ioredis';
import { importPeer, loadOnce } from '../internal/optional-peers.js';
import { RedisRateLimitError } from './store-error.js';

/** The two optional peer dependencies this entry runs on. @internal */
export interface Peers {
  Bottleneck: typeof BottleneckClass;
  Redis: typeof RedisClass;
}

const missing = (name: string, cause: unknown) =>
  new RedisRateLimitError(
    `seo-visibility/redis needs the optional peer dependencies bottleneck and ioredis, and '${name}' could not be loaded. Install both: npm install bottleneck ioredis`,
    cause,
  );

/**
 * Loads `bottleneck` and `ioredis`, once. They are optional peer dependencies, so a plain
 * `npm install seo-visibility` does not bring them: loaded on first use (not imported at the top),
 * a missing one fails with an error that says what to install, instead of the runtime's
 * "Cannot find package".
 *
 * @example
 * ```ts
 * const { Bottleneck, Redis } = await loadPeers();
 * ```
 * @internal
 */
export const loadPeers: () => Promise<Peers> = loadOnce(() =>
  Promise.all([
    importPeer('bottleneck', () => import('bottleneck'), missing),
    importPeer('ioredis', () => import('ioredis'), missing),
  ]).then(([bottleneck, ioredis]) => ({
    // Both are CommonJS: the class is the module itself (`default`), or its `Redis` export.
    Bottleneck: ((bottleneck as { default?: unknown }).default ?? bottleneck) as typeof BottleneckClass,
    Redis: ((ioredis as { Redis?: unknown }).Redis ??
      (ioredis as { default?: { Redis?: unknown } }).default?.Redis) as typeof RedisClass,
  })),
);
