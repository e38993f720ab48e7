/**
 * Two clients with one key in one process (a client per incoming web request is common) share one
 * budget (issue 22 §4): src/core/rate-limit/gate-registry.ts.
 */
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { SeoVisibilityClient } from '../../../src/index.js';
import { createSimulator } from '../../../src/testing/index.js';

beforeEach(() => {
  vi.useFakeTimers({ now: new Date('2026-11-21T12:00:00.300Z'), toFake: ['setTimeout', 'clearTimeout', 'Date'] });
});
afterEach(() => {
  vi.useRealTimers();
});

function server() {
  const sim = createSimulator({
    seed: 24,
    now: () => Date.now(),
    rateLimit: { windows: [{ limit: 20, intervalMs: 10_000 }] },
  });
  const fetch = ((input: string | URL | Request, init?: RequestInit) =>
    sim.fetch(new Request(input, init))) as typeof globalThis.fetch;
  return {
    sim,
    options: {
      apiKey: sim.keys.readWrite,
      baseUrl: sim.baseUrl,
      fetch,
      rateLimit: { windows: false as const, shareInProcess: true },
      maxRetries: 5,
    },
  };
}

async function settleAll(calls: Array<Promise<unknown>>): Promise<{ done: number; failed: unknown[] }> {
  let done = 0;
  const failed: unknown[] = [];
  for (const call of calls)
    void call.then(
      () => done++,
      (error: unknown) => failed.push(error),
    );
  for (let step = 0; step < 1_000 && done + failed.length < calls.length; step++)
    await vi.advanceTimersByTimeAsync(250);
  return { done, failed };
}

describe('one budget per key and base URL in a process', () => {
  test('without it, the second live client with the same key and base URL warns once, naming the remedy and never the key', async () => {
    const { options } = server();
    const warnings: string[] = [];
    const logger = { debug() {}, warn: (message: string) => warnings.push(message) };
    const plain = { ...options, rateLimit: { windows: false as const }, logger };
    const first = new SeoVisibilityClient(plain);
    const second = new SeoVisibilityClient(plain);
    new SeoVisibilityClient(plain);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /two clients in this process use the same API key and base URL .* shareInProcess: true/,
    );
    expect(warnings[0]).not.toContain(options.apiKey);
    // A client derived with withOptions() shares its parent's budget: nothing to warn about.
    first.withOptions({ timeout: 5_000 });
    expect(warnings).toHaveLength(1);
    expect(second).toBeDefined();
  });

  // Found running the unit files in one worker (isolate: false): the warning was once per process
  // for a key and base URL whatever the fetch, so an earlier file with the same seeded simulator key
  // silenced this file's warning. A custom fetch is its own route (gate-registry.ts): its own warning.
  test('each fetch function warns for itself: another fetch with the same key and base URL warns again', () => {
    const warnings: string[] = [];
    const logger = { debug() {}, warn: (message: string) => warnings.push(message) };
    for (const { options } of [server(), server()]) {
      const plain = { ...options, rateLimit: { windows: false as const }, logger };
      new SeoVisibilityClient(plain);
      new SeoVisibilityClient(plain);
    }
    expect(warnings).toHaveLength(2);
  });

  test('shareInProcess is checked', () => {
    const { options } = server();
    expect(
      () => new SeoVisibilityClient({ ...options, rateLimit: { shareInProcess: 'yes' as unknown as boolean } }),
    ).toThrow(/rateLimit.shareInProcess.*true or false/);
  });

  test('with shareInProcess, 300 calls through a new client each (a client per request), 20 per 10 s: zero 429s', async () => {
    const { sim, options } = server();
    const calls = Array.from({ length: 300 }, () => new SeoVisibilityClient(options).projects.list({ limit: 1 }));
    const { done, failed } = await settleAll(calls);
    expect(failed.map(String)).toEqual([]);
    expect(done).toBe(300);
    expect(sim.requests.filter((r) => r.status === 429)).toHaveLength(0);
  });

  test('clients with different keys, or different servers, do not share', async () => {
    const a = server();
    const b = server();
    const other = { ...a.options, apiKey: a.sim.keys.readOnly };
    // 20 each at once: each key's budget is its own, so nobody waits for a window.
    const calls = [
      ...Array.from({ length: 20 }, () => new SeoVisibilityClient(a.options).projects.list({ limit: 1 })),
      ...Array.from({ length: 20 }, () => new SeoVisibilityClient(other).projects.list({ limit: 1 })),
      ...Array.from({ length: 20 }, () => new SeoVisibilityClient(b.options).projects.list({ limit: 1 })),
    ];
    const started = Date.now();
    const { done } = await settleAll(calls);
    expect(done).toBe(60);
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
