import type { RateLimit } from '../../wire/schemas.js';

/** Whether `meta.rate_limit` holds usable numbers (a missing or nonsense one is ignored). @internal */
export function isUsableRateLimit(rateLimit: RateLimit | undefined): rateLimit is RateLimit {
  return (
    rateLimit !== undefined &&
    Number.isFinite(rateLimit.remaining) &&
    Number.isFinite(rateLimit.reset) &&
    rateLimit.remaining >= 0 &&
    rateLimit.reset > 0 &&
    // The longest documented window is a day: a reset further out is nonsense (e.g. milliseconds
    // sent where seconds are documented) and must not lock the client out until the year 55,000.
    rateLimit.reset * 1000 <= Date.now() + MAX_RESET_AHEAD_MS
  );
}

/** Two days: the daily window plus generous clock skew. */
const MAX_RESET_AHEAD_MS = 2 * 86_400_000;
