/**
 * Wire-level helpers for resource tests: a catch-all msw handler that records every request the
 * client sends (so tests can assert the exact method, encoded path, query, body and headers, and
 * count requests), plus shared expectations for argument rejection, schema failures and retries.
 */
import { expect } from 'vitest';
import type { SetupServer } from 'msw/node';
import { InternalServerError, InvalidArgumentError, PagePromise, ResponseValidationError } from '../../src/index.js';
import { API_KEY, BASE_URL, fail, http, ok, rateLimit, seen, type SeenRequest } from './api-server.js';

/** Builds the response to the `n`-th request (1-based) of a test. */
export type Reply = (request: SeenRequest, n: number) => Response | Promise<Response>;

/**
 * Answers every request under the base URL with `reply` and returns the live list of what was
 * sent, in order. Unknown paths are answered too, so a request that should never have been sent is
 * counted rather than failing somewhere else.
 */
export function record(server: SetupServer, reply: Reply = () => ok({})): SeenRequest[] {
  const requests: SeenRequest[] = [];
  server.use(
    http.all(`${BASE_URL}/*`, async ({ request }) => {
      const wire = await seen(request);
      requests.push(wire);
      return reply(wire, requests.length);
    }),
  );
  return requests;
}

/** Answers every request with `ok(data, meta)`. */
export const answer = (server: SetupServer, data: unknown, meta: Record<string, unknown> = {}) =>
  record(server, () => ok(data, meta));

/** Settles a promise-like into its rejection reason, failing the test if it resolves. */
export async function rejection(pending: PromiseLike<unknown>): Promise<unknown> {
  return Promise.resolve(pending).then(
    (value) => expect.fail(`expected a rejection, got ${JSON.stringify(value)}`),
    (error: unknown) => error,
  );
}

/** Asserts the Authorization header, and `content-type: application/json` exactly when a body was sent. */
export function expectHeaders(request: SeenRequest | undefined, { json }: { json: boolean }) {
  expect(request?.headers.authorization).toBe(`Bearer ${API_KEY}`);
  expect(request?.headers.accept).toContain('application/json');
  if (json) expect(request?.headers['content-type']).toMatch(/^application\/json/);
  else expect(request?.headers['content-type']).toBeUndefined();
}

/**
 * Asserts `call` returns without throwing, rejects with `InvalidArgumentError` naming `argument`,
 * and that nothing reached the server. A `PagePromise` is also checked when iterated.
 */
export async function expectRejectedBeforeSending(
  server: SetupServer,
  call: () => PromiseLike<unknown>,
  argument: string,
) {
  const requests = record(server);
  let pending: PromiseLike<unknown> | undefined;
  expect(() => {
    pending = call();
  }).not.toThrow();
  const error = await rejection(pending!);
  expect(error).toBeInstanceOf(InvalidArgumentError);
  expect((error as InvalidArgumentError).argument).toBe(argument);
  if (pending instanceof PagePromise) {
    const iterated = await (async () => {
      for await (const _ of pending as PagePromise<unknown, unknown>) return 'yielded';
      return 'done';
    })().catch((e: unknown) => e);
    expect(iterated).toBeInstanceOf(InvalidArgumentError);
    expect((iterated as InvalidArgumentError).argument).toBe(argument);
  }
  expect(requests).toHaveLength(0);
}

/** Asserts a 200 whose `data` has a wrong type somewhere rejects with `ResponseValidationError` at `path`. */
export async function expectSchemaFailure(
  server: SetupServer,
  call: () => PromiseLike<unknown>,
  data: unknown,
  path: PropertyKey[],
) {
  record(server, () => ok(data, { request_id: 'req_bad_shape' }));
  const error = await rejection(call());
  expect(error).toBeInstanceOf(ResponseValidationError);
  const validation = error as ResponseValidationError;
  expect(validation.requestId).toBe('req_bad_shape');
  expect(validation.status).toBe(200);
  expect(validation.issues[0]?.path).toEqual(path);
}

/** A 429 whose budget resets now, so the retry goes at once. */
export const rateLimited = () =>
  fail(429, 'RATE_LIMITED', 'Rate limit exceeded. Try again later.', {
    request_id: 'req_429',
    rate_limit: rateLimit(0, 0),
  });

/** Asserts a POST answered 500 is sent exactly once and rejects with `InternalServerError`. */
export async function expectNotRetriedOn500(server: SetupServer, call: () => PromiseLike<unknown>) {
  const requests = record(server, () =>
    fail(500, 'INTERNAL_ERROR', 'Internal server error', { request_id: 'req_500' }),
  );
  const error = await rejection(call());
  expect(error).toBeInstanceOf(InternalServerError);
  expect((error as InternalServerError).requestId).toBe('req_500');
  expect(requests).toHaveLength(1);
}

/** Asserts the call is sent again, identically, after `first` (a 429 or a 500), and resolves to `data`. */
export async function expectRetriedAfter(
  server: SetupServer,
  first: () => Response,
  call: () => PromiseLike<unknown>,
  data: unknown,
) {
  const requests = record(server, (_, n) => (n === 1 ? first() : ok(data, { request_id: 'req_after_retry' })));
  await expect(call()).resolves.toEqual(data);
  expect(requests).toHaveLength(2);
  expect(requests[1]).toEqual(requests[0]);
}

/** A 500 in the error envelope. */
export const serverError = () => fail(500, 'INTERNAL_ERROR', 'Internal server error');

/** `n` distinct UUIDs (v4 shape), for records that must differ. */
export const uuidAt = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
