import { afterEach, describe, expect, test, vi } from 'vitest';
import { isBrowser, userAgent } from '../../src/internal/runtime.js';
import { VERSION } from '../../src/wire/version.js';

afterEach(() => {
  vi.unstubAllGlobals();
});

/** Replaces the runtime globals with `globals` for the duration of `read` (synchronous: nothing else runs meanwhile). */
function as<T>(globals: Record<string, unknown>, read: () => T): T {
  vi.stubGlobal('process', undefined);
  for (const [name, value] of Object.entries(globals)) vi.stubGlobal(name, value);
  try {
    return read();
  } finally {
    vi.unstubAllGlobals();
  }
}

describe('runtime detection', () => {
  test('Node is a server and names itself with its version', () => {
    expect(isBrowser()).toBe(false);
    expect(userAgent()).toBe(`seo-visibility/${VERSION} node/${process.versions.node}`);
  });

  test.each([
    ['Bun', { Bun: { version: '1.2.0' }, process: { versions: { node: '22.0.0' } } }, 'bun/1.2.0'],
    ['Deno', { Deno: { version: { deno: '2.1.0' } }, process: { versions: { node: '22.0.0' } } }, 'deno/2.1.0'],
    ['Cloudflare workerd', { navigator: { userAgent: 'Cloudflare-Workers' } }, 'workerd'],
  ])('%s is a server and names itself', (_name, globals, runtime) => {
    expect(as(globals, () => [isBrowser(), userAgent()])).toEqual([false, `seo-visibility/${VERSION} ${runtime}`]);
  });

  test.each([
    ['a page', { window: {}, document: {}, navigator: { userAgent: 'Mozilla/5.0' } }],
    ['a web worker', { WorkerGlobalScope: function WorkerGlobalScope() {}, navigator: { userAgent: 'Mozilla/5.0' } }],
  ])('%s is a browser, and sends no User-Agent', (_name, globals) => {
    expect(as(globals, () => [isBrowser(), userAgent()])).toEqual([true, undefined]);
  });
});
