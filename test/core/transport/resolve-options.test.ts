import { afterEach, describe, expect, test, vi } from 'vitest';
import { resolveRequestOptions } from '../../../src/core/transport/resolve-options.js';
import { InvalidArgumentError, SeoVisibilityClient } from '../../../src/index.js';

const base = { apiKey: 'sv_live_x', baseUrl: 'https://a.example.com/api/v1' };

/** The error the constructor throws for `options` (fails the test when it does not throw). */
function refusal(options: unknown): InvalidArgumentError {
  try {
    new SeoVisibilityClient(options as ConstructorParameters<typeof SeoVisibilityClient>[0]);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidArgumentError);
    return error as InvalidArgumentError;
  }
  throw new Error('expected the constructor to throw');
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('options are checked once, completely, at construction', () => {
  test("a rate window spelled the simulator's way names the key and the right spelling", () => {
    const error = refusal({ ...base, rateLimit: { windows: [{ limit: 2, windowMs: 60_000 }] } });
    expect(error.argument).toBe('rateLimit.windows[0].windowMs');
    expect(error.message).toContain('not an option; did you mean rateLimit.windows[0].intervalMs?');
  });

  test('rateLimit.redis is refused and points to the Redis entry', () => {
    const error = refusal({ ...base, rateLimit: { redis: 'redis://127.0.0.1:6379' } });
    expect(error.argument).toBe('rateLimit.redis');
    expect(error.message).toContain("redisRateLimit({ redis })` from 'seo-visibility/redis'");
  });

  test.each([
    [{ timeOut: 5 }, 'timeOut', 'did you mean timeout?'],
    [{ retries: 3 }, 'retries', 'did you mean maxRetries?'],
    [{ hook: {} }, 'hook', 'did you mean hooks?'],
    [{ hooks: { onResponce: () => {} } }, 'hooks.onResponce', 'did you mean hooks.onResponse?'],
    [{ retryBackoff: { initalDelay: 1 } }, 'retryBackoff.initalDelay', 'did you mean retryBackoff.initialDelay?'],
    [{ colour: 'red' }, 'colour', 'the options are apiKey, baseUrl'],
  ])('an unknown key is named, with the closest known one (%o)', (extra, argument, hint) => {
    const error = refusal({ ...base, ...extra });
    expect(error.argument).toBe(argument);
    expect(error.message).toContain(hint);
  });

  test.each([
    ['timeout', { timeout: Number.POSITIVE_INFINITY }, /from 1 to 86,400,000 ms/],
    ['timeout', { timeout: Number.NaN }, /from 1 to 86,400,000 ms/],
    ['timeout', { timeout: 0 }, /from 1 to 86,400,000 ms/],
    ['timeout', { timeout: 2 ** 31 }, /from 1 to 86,400,000 ms/],
    ['timeout', { timeout: '5000' }, /from 1 to 86,400,000 ms/],
    ['maxRetries', { maxRetries: 1.5 }, /integer from 0 to 100/],
    ['maxRetries', { maxRetries: Number.POSITIVE_INFINITY }, /integer from 0 to 100/],
    ['maxRetryDelay', { maxRetryDelay: Number.POSITIVE_INFINITY }, /from 0 to 86,400,000 ms/],
    ['maxRetryDelay', { maxRetryDelay: -1 }, /from 0 to 86,400,000 ms/],
    ['retryBackoff.maxDelay', { retryBackoff: { maxDelay: Number.NaN } }, /from 0 to 86,400,000 ms/],
    [
      'retryBackoff.initialDelay',
      { retryBackoff: { initialDelay: 9_000, maxDelay: 1_000 } },
      /at most retryBackoff.maxDelay/,
    ],
    [
      'rateLimit.windows[0].limit',
      { rateLimit: { windows: [{ limit: 0, intervalMs: 1_000 }] } },
      /integer of 1 or more/,
    ],
    [
      'rateLimit.windows[1].intervalMs',
      {
        rateLimit: {
          windows: [
            { limit: 1, intervalMs: 1 },
            { limit: 1, intervalMs: Number.POSITIVE_INFINITY },
          ],
        },
      },
      /from 1 to 86,400,000 ms/,
    ],
    ['rateLimit.windows[0].intervalMs', { rateLimit: { windows: [{ limit: 1 }] } }, /from 1 to 86,400,000 ms/],
    ['rateLimit.windows', { rateLimit: { windows: true } }, /false or an array/],
    ['rateLimit', { rateLimit: true }, /false or an object/],
    ['rateLimit.gate', { rateLimit: { gate: () => undefined } }, /createGate/],
    [
      'rateLimit.gate',
      { rateLimit: { gate: { createGate: () => undefined } } },
      /return a gate with an acquire\(options\) method, got undefined/,
    ],
    ['fetch', { fetch: 'https://proxy.example.com' }, /a fetch function/],
    ['logger', { logger: { debug() {} } }, /debug and warn methods/],
    ['logLevel', { logLevel: 'verbose' }, /'debug', 'info', 'warn', 'error' or 'off'/],
    ['dangerouslyAllowBrowser', { dangerouslyAllowBrowser: 'yes' }, /true or false/],
    ['headers.x-count', { headers: { 'x-count': 3 } }, /string header value/],
    ["headers['X-A']", { headers: { 'X-A': 'b\nc' } }, /control characters/],
    ['hooks.onRequest', { hooks: { onRequest: 'log' } }, /a function or an array of functions/],
    ['hooks.onRequest[1]', { hooks: { onRequest: [() => {}, null] } }, /a function/],
    ['options', 'sv_live_x', /an object such as \{ apiKey, baseUrl \}/],
  ])('%s: a value that could hang or break a call is refused with what is allowed', (argument, extra, message) => {
    const error = refusal(typeof extra === 'string' ? extra : { ...base, ...extra });
    expect(error.argument).toBe(argument);
    expect(error.message).toMatch(message);
    expect(error.message).not.toContain('sv_live_x');
  });

  test('the largest values allowed are accepted: every duration is bounded by a day, retries by 100', () => {
    expect(
      () =>
        new SeoVisibilityClient({
          ...base,
          timeout: 86_400_000,
          maxRetryDelay: 86_400_000,
          maxRetries: 100,
          retryBackoff: { initialDelay: 0, maxDelay: 86_400_000 },
        }),
    ).not.toThrow();
  });

  test.each([
    'https://a.example.com',
    'https://a.example.com/api',
    'https://a.example.com/api/v2',
    'https://a.example.com/v1',
    'https://a.example.com/api/v1/projects',
  ])('a base URL that does not end in /api/v1 is refused, saying so (%s)', (baseUrl) => {
    const error = refusal({ apiKey: 'sv_live_x', baseUrl });
    expect(error.argument).toBe('baseUrl');
    expect(error.message).toContain('ending in /api/v1');
    expect(error.message).toContain('https://a.example.com/api/v1');
  });

  test('a trailing slash after /api/v1 is tolerated', () => {
    expect(new SeoVisibilityClient({ apiKey: 'sv_live_x', baseUrl: 'https://a.example.com/api/v1/' }).baseUrl).toBe(
      'https://a.example.com/api/v1',
    );
  });

  test('hooks given as single functions are accepted', () => {
    expect(
      () =>
        new SeoVisibilityClient({
          ...base,
          hooks: { onRequest: () => {}, onResponse: [() => {}], onError: () => {}, onRetry: () => {} },
        }),
    ).not.toThrow();
  });
});

describe('per-call options are checked the same way', () => {
  test('accepts the documented keys', () => {
    const signal = new AbortController().signal;
    expect(resolveRequestOptions({ signal, timeout: 5_000, maxRetries: 0, headers: { 'x-a': 'b' } })).toEqual({
      signal,
      timeout: 5_000,
      maxRetries: 0,
      headers: { 'x-a': 'b' },
    });
    expect(resolveRequestOptions(undefined)).toEqual({});
  });

  test.each([
    [{ timeOut: 5 }, 'options.timeOut', /did you mean options.timeout\?/],
    [{ timeout: Number.POSITIVE_INFINITY }, 'options.timeout', /from 1 to 86,400,000 ms/],
    [{ maxRetries: -1 }, 'options.maxRetries', /integer from 0 to 100/],
    [{ signal: 'stop' }, 'options.signal', /an AbortSignal/],
    [{ headers: { 'a b': 'c' } }, "headers['a b']", /tokens/],
    [{ baseUrl: 'https://b.example.com/api/v1' }, 'options.baseUrl', /not an option/],
    [5, 'options', /an object such as \{ signal, timeout \}/],
  ])('refuses %o', (options, argument, message) => {
    let error: unknown;
    try {
      resolveRequestOptions(options as never);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect((error as InvalidArgumentError).argument).toBe(argument);
    expect((error as InvalidArgumentError).message).toMatch(message);
  });
});
