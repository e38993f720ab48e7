import type { RateGate, RateGateContext } from '../index.js';

/**
 * The per-process throttle a shared gate uses while Redis is down (`onRedisError: 'local'`), with
 * one warning per outage: the caller chose this fallback, but a fleet then overdraws the key, so
 * it is said even without a logger.
 *
 * @example
 * ```ts
 * const fallback = new LocalFallback(context, () => store.down?.message);
 * const permit = await fallback.gate().acquire({ retry: false, maxWaitMs: 60_000 });
 * ```
 * @internal
 */
export class LocalFallback {
  readonly #context: RateGateContext;
  readonly #reason: () => string | undefined;
  #gate: RateGate | undefined;
  #warned = false;

  constructor(context: RateGateContext, reason: () => string | undefined) {
    this.#context = context;
    this.#reason = reason;
  }

  /** The local gate, warning first if this outage has not been reported yet. */
  gate(): RateGate {
    if (!this.#warned) {
      this.#warned = true;
      const logger = this.#context.logger ?? {
        warn: (message: string, details?: Record<string, unknown>) => console.warn(message, details),
      };
      logger.warn(
        'seo-visibility: Redis is unreachable; rate limiting falls back to this process only until it is back',
        { error: this.#reason() },
      );
    }
    return (this.#gate ??= this.#context.localGate());
  }

  /** Redis is back: the next outage warns again. */
  recovered(): void {
    this.#warned = false;
  }
}
