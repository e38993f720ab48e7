/**
 * The SDK's own retry rules on top of p-retry: Retry-After (seconds or an HTTP date) on 429 and
 * 503, the later of it and meta.rate_limit.reset, and no wait longer than maxRetryDelay.
 */
import { describe, expect, test } from 'vitest';
import { InternalServerError, RateLimitedError } from '../../../src/index.js';
import { BASE_URL, PROJECT_ID, fail, ok, testClient, useApiServer } from '../../helpers/api-server.js';
import { sequenceOn } from '../../helpers/sequence.js';
import { backlinkSummaryFixture as summary } from '../../fixtures/records.js';

const server = useApiServer();
const sequence = sequenceOn(server);
const SUMMARY = `${BASE_URL}/projects/${PROJECT_ID}/backlinks/summary`;

describe('Retry-After and the rate-limit reset', () => {
  const limited =
    (headers: Record<string, string>, meta: Record<string, unknown> = {}) =>
    () => {
      const response = fail(429, 'RATE_LIMITED', 'Rate limit exceeded. Try again later.', meta);
      for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
      return response;
    };
  const unavailable = (retryAfter: string) => () => {
    const response = fail(503, 'INTERNAL_ERROR', 'Down for maintenance');
    response.headers.set('retry-after', retryAfter);
    return response;
  };
  const httpDate = (msFromNow: number) => new Date(Date.now() + msFromNow).toUTCString();
  const delays = () => {
    const seen: number[] = [];
    return { seen, hooks: { onRetry: [(info: { delayMs: number }) => seen.push(info.delayMs)] } };
  };

  test('a 429 with Retry-After in seconds waits that long, then retries', async () => {
    const calls = sequence('get', SUMMARY, limited({ 'retry-after': '1' }, { rate_limit: undefined }), () =>
      ok(summary),
    );
    const { seen, hooks } = delays();
    await expect(testClient({ hooks }).backlinks.summary(PROJECT_ID)).resolves.toMatchObject({
      total_backlinks: summary.total_backlinks,
    });
    expect(calls.count).toBe(2);
    expect(seen[0]).toBeGreaterThanOrEqual(1_000);
  });

  test('a 429 with Retry-After as an HTTP date further than maxRetryDelay throws at once, carrying the wait', async () => {
    const calls = sequence('get', SUMMARY, limited({ 'retry-after': httpDate(3_600_000) }, { rate_limit: undefined }));
    const error = (await testClient({ maxRetryDelay: 5_000 })
      .backlinks.summary(PROJECT_ID)
      .catch((e: unknown) => e)) as RateLimitedError;
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error.retryAfterMs).toBeGreaterThan(3_500_000);
    expect(error.headers['retry-after']).toBeDefined();
    expect(calls.count).toBe(1);
  });

  test('takes the later of Retry-After and meta.rate_limit.reset: a later header wins', async () => {
    const reset = Math.floor(Date.now() / 1000) + 1;
    const calls = sequence(
      'post',
      `${BASE_URL}/projects`,
      limited({ 'retry-after': '600' }, { rate_limit: { limit: 200, remaining: 0, reset } }),
    );
    const error = (await testClient({ maxRetryDelay: 5_000 })
      .projects.create({ websiteUrl: 'https://example.com' })
      .catch((e: unknown) => e)) as RateLimitedError;
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error.retryAfterMs).toBeGreaterThan(590_000);
    expect(error.resetAt?.getTime()).toBe(reset * 1000);
    expect(calls.count).toBe(1);
  });

  test('takes the later of Retry-After and meta.rate_limit.reset: a later reset wins', async () => {
    const reset = Math.floor(Date.now() / 1000) + 600;
    const calls = sequence(
      'get',
      SUMMARY,
      limited({ 'retry-after': '1' }, { rate_limit: { limit: 200, remaining: 0, reset } }),
    );
    const error = (await testClient({ maxRetryDelay: 5_000 })
      .backlinks.summary(PROJECT_ID)
      .catch((e: unknown) => e)) as RateLimitedError;
    expect(error.retryAfterMs).toBeGreaterThan(590_000);
    expect(calls.count).toBe(1);
  });

  test('a 503 with Retry-After in seconds is retried after that wait (GET)', async () => {
    const calls = sequence('get', SUMMARY, unavailable('1'), () => ok(summary));
    const { seen, hooks } = delays();
    await expect(testClient({ hooks }).backlinks.summary(PROJECT_ID)).resolves.toMatchObject({
      total_backlinks: summary.total_backlinks,
    });
    expect(calls.count).toBe(2);
    expect(seen[0]).toBeGreaterThanOrEqual(1_000);
  });

  test('a 503 whose Retry-After date is further than maxRetryDelay is not retried', async () => {
    const calls = sequence('get', SUMMARY, unavailable(httpDate(600_000)), () => ok(summary));
    const error = (await testClient({ maxRetryDelay: 5_000 })
      .backlinks.summary(PROJECT_ID)
      .catch((e: unknown) => e)) as InternalServerError;
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error.status).toBe(503);
    expect(calls.count).toBe(1);
  });

  test('a 503 on a POST is not retried, whatever its Retry-After', async () => {
    const calls = sequence('post', `${BASE_URL}/projects`, unavailable('0'));
    await expect(testClient().projects.create({ websiteUrl: 'https://example.com' })).rejects.toBeInstanceOf(
      InternalServerError,
    );
    expect(calls.count).toBe(1);
  });
});

describe('hold', () => {
  test('a signal aborted before the hold starts (an onRetry hook may abort) rejects at once', async () => {
    const { hold } = await import('../../../src/core/transport/retry-policy.js');
    const controller = new AbortController();
    controller.abort();
    const started = Date.now();
    await expect(hold(5_000, controller.signal)).rejects.toMatchObject({ name: 'AbortedError' });
    // Half the hold: a loaded machine's pause cannot pass for it, and holding it out cannot pass.
    expect(Date.now() - started).toBeLessThan(2_500);
  });
});
