import { SeoVisibilityError } from '../index.js';

/**
 * A fleet could not do what was asked: `missing_peer` (pg-boss or pg is not installed; the message
 * says `npm install pg-boss pg`), `unknown_account` (an account id the configuration does not
 * hold), `other_fleet` (a job another fleet queued, which this fleet's worker never runs), `closed`
 * (the fleet was closed). It is a `SeoVisibilityError`, like every error of the SDK,
 * and never carries an API key.
 *
 * @example
 * ```ts
 * import { FleetError } from 'seo-visibility/fleet';
 * await fleet.enqueue(['no-such-client']).catch((error: unknown) => {
 *   if (error instanceof FleetError && error.code === 'unknown_account') console.error(error.message);
 * });
 * ```
 */
export class FleetError extends SeoVisibilityError {
  override name = 'FleetError' as const;
  /**
   * What went wrong, for code that branches on it.
   * @example
   * ```ts
   * const failure = await fleet.enqueue(['no-such-client']).catch((e: unknown) => e);
   * if (failure instanceof FleetError) console.log(failure.code); // 'unknown_account'
   * ```
   */
  readonly code: 'missing_peer' | 'unknown_account' | 'other_fleet' | 'closed';

  constructor(code: FleetError['code'], message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}
