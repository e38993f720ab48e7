import type { ApiResult } from './read-response.js';

/**
 * The promise every non-list method returns: await it for the data, `.withResponse()` for
 * `{ data, meta }` (the request id and rate-limit budget of the response), or `.withResponse()`
 * for `{ data, meta, response }` (the HTTP status and headers too).
 *
 * **Lazy, like every promise this SDK returns:** nothing is checked or sent until the first
 * `await`/`.then()`, `.withResponse()`. Creating a promise and dropping it costs
 * no request; using it twice sends once.
 *
 * @example
 * ```ts
 * const summary = await client.backlinks.summary(projectId);
 * const { data, meta } = await client.backlinks.summary(projectId).withResponse();
 * console.log(meta.request_id, meta.rate_limit?.remaining);
 * const { response } = await client.backlinks.summary(projectId).withResponse();
 * console.log(response.status, response.headers.get('content-type'));
 * ```
 */
export class ApiPromise<T> implements PromiseLike<T> {
  readonly #send: () => Promise<ApiResult<T>>;
  #result: Promise<ApiResult<T>> | undefined;

  /** @internal */
  constructor(send: () => Promise<ApiResult<T>>) {
    this.#send = send;
  }

  /** Sends the call the first time it is needed; later uses share the same result. */
  #start(): Promise<ApiResult<T>> {
    if (this.#result === undefined) {
      try {
        this.#result = this.#send();
      } catch (error) {
        // A sender that throws before returning its promise still fails through the promise.
        this.#result = Promise.reject(error);
      }
    }
    return this.#result;
  }

  /**
   * Resolves to `{ data, meta, response }`: `response` is the fetch `Response` of the final
   * attempt (status, headers, url; its body is already read), as openai-node's `withResponse()`.
   *
   * @example
   * ```ts
   * const { data, response } = await client.audits.latest(projectId).withResponse();
   * console.log(response.status, response.headers.get('date'), data.critical_issues);
   * ```
   */
  withResponse(): Promise<ApiResult<T>> {
    return this.#start();
  }

  /**
   * Sends the call (once) and resolves to its data, like `Promise.prototype.then`.
   *
   * @example
   * ```ts
   * client.backlinks.summary(projectId).then((s) => console.log(s.total_backlinks));
   * ```
   */
  // biome-ignore lint/suspicious/noThenProperty: this class is a promise on purpose
  then<R1 = T, R2 = never>(
    onFulfilled?: ((value: T) => R1 | PromiseLike<R1>) | null,
    onRejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    return this.#start()
      .then((result) => result.data)
      .then(onFulfilled, onRejected);
  }

  /**
   * Like `Promise.prototype.catch`.
   *
   * @example
   * ```ts
   * const latest = await client.audits.latest(projectId).catch(() => undefined);
   * ```
   */
  catch<R = never>(onRejected?: ((reason: unknown) => R | PromiseLike<R>) | null): Promise<T | R> {
    return this.then(undefined, onRejected);
  }

  /**
   * Like `Promise.prototype.finally`.
   *
   * @example
   * ```ts
   * await client.webhooks.list().finally(() => spinner.stop());
   * ```
   */
  finally(onFinally?: (() => void) | null): Promise<T> {
    return this.then().finally(onFinally);
  }

  /** `'ApiPromise'`, what `Object.prototype.toString` and debuggers show. */
  get [Symbol.toStringTag](): string {
    return 'ApiPromise';
  }
}
