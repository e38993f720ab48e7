import { SeoVisibilityError } from './base.js';
import { guardFor } from './cross-realm-guard.js';

/**
 * What a {@link ResponseTooLargeError} is built from.
 *
 * @example
 * ```ts
 * new ResponseTooLargeError({ status: 200, limitBytes: 67_108_864, contentEncoding: 'br' });
 * ```
 */
export interface ResponseTooLargeInit {
  /** HTTP status of the response. */
  status: number;
  /** The client's `maxResponseBytes`. */
  limitBytes: number;
  /** The response's `Content-Encoding` (`br`, `gzip`, …), when it had one. */
  contentEncoding: string | undefined;
}

/**
 * A response body grew past the client's `maxResponseBytes` once decoded (a decompression bomb:
 * 1 KB of brotli can inflate to gigabytes). Reading stopped at the limit, so memory stays bounded.
 * It is not retried: the same request would get the same body.
 *
 * @example
 * ```ts
 * await client.reports.get(projectId, reportId).catch((e) => {
 *   if (e instanceof ResponseTooLargeError) console.error(`over ${e.limitBytes} bytes (${e.contentEncoding ?? 'identity'})`);
 * });
 * ```
 */
export class ResponseTooLargeError extends SeoVisibilityError {
  override name = 'ResponseTooLargeError' as const;
  /** HTTP status of the response. */
  readonly status: number;
  /** The limit that was reached (`maxResponseBytes`). */
  readonly limitBytes: number;
  /** The response's `Content-Encoding`, when it had one. */
  readonly contentEncoding: string | undefined;

  constructor(init: ResponseTooLargeInit) {
    const encoded = init.contentEncoding ? ` (Content-Encoding: ${init.contentEncoding})` : '';
    super(
      `The response body${encoded} is larger than maxResponseBytes (${init.limitBytes} bytes) once decoded; reading stopped there and it is not retried. ` +
        'Raise the client option maxResponseBytes if the API really sends this much.',
    );
    this.status = init.status;
    this.limitBytes = init.limitBytes;
    this.contentEncoding = init.contentEncoding;
  }
}

/**
 * Cross-realm guard for {@link ResponseTooLargeError}.
 *
 * @example
 * ```ts
 * try {
 *   await client.projects.list();
 * } catch (caught) {
 *   if (!isResponseTooLargeError(caught)) throw caught; // handle one kind, pass the rest on
 *   console.error(`over ${caught.limitBytes} bytes`);
 * }
 * ```
 */
export const isResponseTooLargeError = guardFor(ResponseTooLargeError);
