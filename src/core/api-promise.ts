import type { ApiResult } from './attempt.js';

/**
 * The promise every non-list method returns: await it for the data, or call `.withMeta()` for
 * `{ data, meta }` (the request id and rate-limit budget of the response).
 *
 * @example
 * ```ts
 * const summary = await client.backlinks.summary(projectId);
 * const { data, meta } = await client.backlinks.summary(projectId).withMeta();
 * console.log(meta.request_id, meta.rate_limit?.remaining);
 * ```
 */
export class ApiPromise<T> implements PromiseLike<T> {
  readonly #result: Promise<ApiResult<T>>;

  /** @internal */
  constructor(result: Promise<ApiResult<T>>) {
    this.#result = result;
  }

  /** Resolves to `{ data, meta }` instead of the data alone. */
  withMeta(): Promise<ApiResult<T>> {
    return this.#result;
  }

  // biome-ignore lint/suspicious/noThenProperty: this class is a promise on purpose
  then<R1 = T, R2 = never>(
    onFulfilled?: ((value: T) => R1 | PromiseLike<R1>) | null,
    onRejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    return this.#result.then((result) => result.data).then(onFulfilled, onRejected);
  }

  /** Like `Promise.prototype.catch`. */
  catch<R = never>(onRejected?: ((reason: unknown) => R | PromiseLike<R>) | null): Promise<T | R> {
    return this.then(undefined, onRejected);
  }

  /** Like `Promise.prototype.finally`. */
  finally(onFinally?: (() => void) | null): Promise<T> {
    return this.then().finally(onFinally);
  }

  /** `'ApiPromise'`, what `Object.prototype.toString` and debuggers show. */
  get [Symbol.toStringTag](): string {
    return 'ApiPromise';
  }
}
