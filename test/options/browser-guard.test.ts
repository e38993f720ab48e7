/**
 * Issue 22 §3: the browser guard was off whenever any `fetch` was passed, even the page's own
 * `window.fetch`, and the real key went cross-origin from the page. Passing a fetch proves nothing
 * about where the key ends up: in a browser only `dangerouslyAllowBrowser: true` lets a client start.
 */
import { afterEach, describe, expect, test, vi } from 'vitest';
import { InvalidArgumentError, SeoVisibilityClient } from '../../src/index.js';
import { createSimulator } from '../../src/testing/index.js';

const base = { apiKey: 'sv_live_guarded_key_123', baseUrl: 'https://api.example.com/api/v1' };

/** A browser page as the SDK sees one: window and document, no Node. */
function asBrowserPage(): void {
  vi.stubGlobal('window', { fetch: globalThis.fetch });
  vi.stubGlobal('document', {});
  vi.stubGlobal('process', { env: {}, versions: {} });
}
afterEach(() => vi.unstubAllGlobals());

function refusal(build: () => unknown): InvalidArgumentError {
  try {
    build();
  } catch (error) {
    if (error instanceof InvalidArgumentError) return error;
    throw error;
  }
  throw new Error('the client started');
}

describe('the browser guard depends on the runtime and the opt-in, not on fetch', () => {
  test.each([
    ['window.fetch', () => (globalThis as unknown as { window: { fetch: typeof fetch } }).window.fetch],
    ['a wrapper around fetch', () => (input: RequestInfo | URL, init?: RequestInit) => fetch(input, init)],
    ["the simulator's fetch", () => createSimulator({ seed: 1 }).fetch],
  ])('in a page, a client given %s is refused, naming the opt-in', (_name, fetchOf) => {
    asBrowserPage();
    const error = refusal(() => new SeoVisibilityClient({ ...base, fetch: fetchOf() }));
    expect(error.argument).toBe('dangerouslyAllowBrowser');
    expect(error.message).toContain('every visitor');
    expect(error.message).not.toContain(base.apiKey);
  });

  test('in a page, dangerouslyAllowBrowser: true starts it, with or without a fetch', () => {
    asBrowserPage();
    expect(new SeoVisibilityClient({ ...base, dangerouslyAllowBrowser: true }).baseUrl).toBe(base.baseUrl);
    expect(new SeoVisibilityClient({ ...base, fetch: globalThis.fetch, dangerouslyAllowBrowser: true }).baseUrl).toBe(
      base.baseUrl,
    );
  });

  test('on a server (Node), a custom fetch needs no opt-in', () => {
    expect(new SeoVisibilityClient({ ...base, fetch: globalThis.fetch }).baseUrl).toBe(base.baseUrl);
  });
});
