import { afterEach, describe, expect, test, vi } from 'vitest';
import { InvalidArgumentError, SeoVisibilityClient } from '../src/index.js';

afterEach(() => {
  vi.unstubAllEnvs();
});

const rejected = (options: ConstructorParameters<typeof SeoVisibilityClient>[0]) => {
  try {
    new SeoVisibilityClient(options);
  } catch (error) {
    return error as InvalidArgumentError;
  }
  throw new Error('expected the constructor to throw');
};

describe('SeoVisibilityClient options', () => {
  test('reads the key and base URL from the environment when not given', () => {
    vi.stubEnv('SEO_VISIBILITY_API_KEY', 'sv_live_env');
    vi.stubEnv('SEO_VISIBILITY_BASE_URL', 'https://api.example.com/api/v1/');
    const client = new SeoVisibilityClient();
    expect(client.baseUrl).toBe('https://api.example.com/api/v1');
  });

  test('explicit options win over the environment', () => {
    vi.stubEnv('SEO_VISIBILITY_BASE_URL', 'https://env.example.com/api/v1');
    const client = new SeoVisibilityClient({ apiKey: 'sv_live_x', baseUrl: 'https://given.example.com/api/v1' });
    expect(client.baseUrl).toBe('https://given.example.com/api/v1');
  });

  test.each([
    [{ apiKey: '', baseUrl: 'https://a.example.com/api/v1' }, 'apiKey', /non-empty API key/],
    [{ apiKey: 'sv_live_ x', baseUrl: 'https://a.example.com/api/v1' }, 'apiKey', /whitespace/],
    [{ apiKey: 'sv_live_x\r\nX-Evil: 1', baseUrl: 'https://a.example.com/api/v1' }, 'apiKey', /control characters/],
    [{ apiKey: 'sv_live_x' }, 'baseUrl', /SEO_VISIBILITY_BASE_URL/],
    [{ apiKey: 'sv_live_x', baseUrl: 'not a url' }, 'baseUrl', /absolute URL/],
    [{ apiKey: 'sv_live_x', baseUrl: 'ftp://a.example.com/api/v1' }, 'baseUrl', /http\(s\)/],
    [{ apiKey: 'sv_live_x', baseUrl: 'http://api.example.com/api/v1' }, 'baseUrl', /loopback/],
    [{ apiKey: 'sv_live_x', baseUrl: 'https://a.example.com/api/v1', timeout: 0 }, 'timeout', /positive/],
    [{ apiKey: 'sv_live_x', baseUrl: 'https://a.example.com/api/v1', maxRetries: 1.5 }, 'maxRetries', /integer/],
    [{ apiKey: 'sv_live_x', baseUrl: 'https://a.example.com/api/v1', maxRetryDelay: -1 }, 'maxRetryDelay', /0 or more/],
    [{ apiKey: 'sv_live_x', baseUrl: 'https://a.example.com/api/v1', headers: { 'X-A': 'b\nc' } }, "headers['X-A']", /control characters/],
    [{ apiKey: 'sv_live_x', baseUrl: 'https://a.example.com/api/v1', rateLimit: { windows: [{ limit: 0, intervalMs: 1 }] } }, 'rateLimit.windows[0].limit', /positive integer/],
  ])('rejects bad options with an error naming the option (%#)', (options, argument, message) => {
    vi.stubEnv('SEO_VISIBILITY_API_KEY', undefined);
    vi.stubEnv('SEO_VISIBILITY_BASE_URL', undefined);
    const error = rejected(options);
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.argument).toBe(argument);
    expect(error.message).toMatch(message);
    expect(error.message).not.toContain('sv_live_x');
  });

  test.each(['http://localhost:4010/api/v1', 'http://127.0.0.1:8080/api/v1', 'http://[::1]:3000/api/v1'])('allows plain http to loopback %s', (baseUrl) => {
    expect(new SeoVisibilityClient({ apiKey: 'sv_live_x', baseUrl }).baseUrl).toBe(baseUrl);
  });

  test('does not reject a key for its prefix (the prefix is not documented)', () => {
    expect(() => new SeoVisibilityClient({ apiKey: 'anything_live_abc', baseUrl: 'https://a.example.com/api/v1' })).not.toThrow();
  });

  test('exposes every namespace', () => {
    const client = new SeoVisibilityClient({ apiKey: 'sv_live_x', baseUrl: 'https://a.example.com/api/v1' });
    expect(Object.keys(client)).toEqual(['projects', 'rankings', 'prompts', 'audits', 'backlinks', 'content', 'reports', 'webhooks']);
  });
});
