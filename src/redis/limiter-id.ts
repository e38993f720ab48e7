import { createHash } from 'node:crypto';

/**
 * The Redis id of a key's shared budget: `seo-visibility:` and the first 128 bits of the key's
 * SHA-256, so every process with the same key meets on the same limiter while Redis (and anyone who
 * can read it) never sees the key itself.
 *
 * @example
 * ```ts
 * limiterId('sk_live_abc'); // 'seo-visibility:5d6c…' (32 hex digits)
 * ```
 */
export function limiterId(apiKey: string): string {
  return `seo-visibility:${createHash('sha256').update(apiKey).digest('hex').slice(0, 32)}`;
}
