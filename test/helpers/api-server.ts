import { http, HttpResponse, type JsonBodyType } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { SeoVisibilityClient } from '../../src/index.js';
import type { ClientOptions } from '../../src/index.js';

/** The base URL unit tests talk to; msw intercepts it, nothing leaves the process. */
export const BASE_URL = 'https://api.test/api/v1';
export const API_KEY = 'sv_live_test_0123456789';
export const PROJECT_ID = '3f2b9c4e-8a1d-4c6e-9b7a-2d5e1f0a6c3b';
export const OTHER_ID = '9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a';

/** One msw server for a test file; unhandled requests fail the test. */
export function useApiServer() {
  const server = setupServer();
  beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
  afterEach(() => server.resetHandlers());
  afterAll(() => server.close());
  return server;
}

/** A client against the msw base URL with fast retries and no local pacing. */
export function testClient(options: ClientOptions = {}): SeoVisibilityClient {
  return new SeoVisibilityClient({
    apiKey: API_KEY,
    baseUrl: BASE_URL,
    retryBackoff: { initialDelay: 1, maxDelay: 5 },
    rateLimit: { windows: false },
    ...options,
  });
}

/** `meta.rate_limit` with plenty of budget left. */
export function rateLimit(remaining = 199, resetInSeconds = 60) {
  return { limit: 200, remaining, reset: Math.floor(Date.now() / 1000) + resetInSeconds };
}

/** A success envelope. */
export function ok(data: unknown, meta: Record<string, unknown> = {}, status = 200) {
  return HttpResponse.json(
    { success: true, data, meta: { request_id: 'req_ok', rate_limit: rateLimit(), ...meta } } as JsonBodyType,
    { status },
  );
}

/** An error envelope. */
export function fail(status: number, code: string, message: string, meta: Record<string, unknown> = {}) {
  return HttpResponse.json(
    {
      success: false,
      error: { code, message },
      meta: { request_id: 'req_err', rate_limit: rateLimit(), ...meta },
    } as JsonBodyType,
    { status },
  );
}

/** What a handler saw of a request, for wire assertions. */
export interface SeenRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  body: unknown;
}

/** Reads a request into a plain record (body parsed as JSON when present). */
export async function seen(request: Request): Promise<SeenRequest> {
  const url = new URL(request.url);
  const text = await request.clone().text();
  return {
    method: request.method,
    path: url.pathname.replace('/api/v1', ''),
    query: Object.fromEntries(url.searchParams),
    headers: Object.fromEntries(request.headers),
    body: text === '' ? undefined : JSON.parse(text),
  };
}

export { http, HttpResponse };
