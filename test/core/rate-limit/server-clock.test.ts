/**
 * Clock skew (issue 22 §2): `meta.rate_limit.reset` is a Unix time on the server's clock. The
 * client learns the offset from `Date` and paces on server time. Injected clocks: the simulator's
 * runs ahead of or behind the faked local one, and its responses carry `Date` from its own clock.
 */
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { SeoVisibilityClient } from '../../../src/index.js';
import { ServerClock } from '../../../src/core/rate-limit/server-clock.js';
import { createSimulator } from '../../../src/testing/index.js';

beforeEach(() => {
  vi.useFakeTimers({ now: new Date('2026-11-21T12:00:00.300Z'), toFake: ['setTimeout', 'clearTimeout', 'Date'] });
});
afterEach(() => {
  vi.useRealTimers();
});

/** A simulator whose clock is `skewMs` off this machine's, 5 requests per 2 s, sending `Date` as a real server does. */
function skewed(skewMs: number) {
  const sim = createSimulator({
    seed: 22,
    now: () => Date.now() + skewMs,
    rateLimit: { windows: [{ limit: 5, intervalMs: 2_000 }] },
  });
  const fetch = async (input: string | URL | Request, init?: RequestInit) => {
    const response = await sim.fetch(new Request(input, init));
    const headers = new Headers(response.headers);
    headers.set('date', new Date(sim.now()).toUTCString());
    return new Response(response.body, { status: response.status, headers });
  };
  const client = new SeoVisibilityClient({
    apiKey: sim.keys.readWrite,
    baseUrl: sim.baseUrl,
    fetch: fetch as typeof globalThis.fetch,
    rateLimit: { windows: false },
    maxRetries: 5,
  });
  return { sim, client };
}

async function burst(client: SeoVisibilityClient, n: number, stepMs: number, maxSteps: number) {
  const start = Date.now();
  let done = 0;
  let lastAt = start;
  const failed: unknown[] = [];
  for (let i = 0; i < n; i++) {
    void client.projects.list({ limit: 1 }).then(
      () => {
        done++;
        lastAt = Date.now();
      },
      (error: unknown) => failed.push(error),
    );
  }
  for (let step = 0; step < maxSteps && done + failed.length < n; step++) await vi.advanceTimersByTimeAsync(stepMs);
  return { done, failed, tookMs: lastAt - start };
}

describe('clock skew', () => {
  test('server 10 minutes ahead: 20 calls at 5 per 2 s take seconds, not 10 minutes', async () => {
    const { sim, client } = skewed(10 * 60_000);
    const { done, failed, tookMs } = await burst(client, 20, 500, 1_400);
    expect(failed.map(String)).toEqual([]);
    expect(done).toBe(20);
    expect(tookMs).toBeLessThan(15_000); // four windows of 2 s, and slack; not 600 s
    expect(sim.requests.filter((r) => r.status === 429)).toHaveLength(0);
  });

  test('server 2 minutes behind: 100 calls at 5 per 2 s are all served with no 429', async () => {
    const { sim, client } = skewed(-2 * 60_000);
    const { done, failed } = await burst(client, 100, 500, 400);
    expect(failed.map(String)).toEqual([]);
    expect(done).toBe(100);
    expect(sim.requests.filter((r) => r.status === 429)).toHaveLength(0);
  });

  test("the reset handed to the caller is on this machine's clock", async () => {
    const { client } = skewed(10 * 60_000);
    const { meta } = await client.projects.list({ limit: 1 }).withResponse();
    const resetIn = meta.rate_limit!.reset * 1000 - Date.now();
    expect(resetIn).toBeGreaterThan(0);
    expect(resetIn).toBeLessThanOrEqual(3_000);
  });
});

describe('ServerClock', () => {
  test("ignores offsets within the Date header's precision, and broken dates", () => {
    const clock = new ServerClock(() => 1_000_000);
    clock.observe(new Date(1_000_000 - 1_500).toUTCString(), 1_000_000);
    expect(clock.offsetMs).toBe(0);
    clock.observe('not a date', 1_000_000);
    clock.observe(new Date(1_000_000 + 10 * 86_400_000).toUTCString(), 1_000_000);
    expect(clock.offsetMs).toBe(0);
  });

  test('follows the latest reading (a clock corrected after sleep)', () => {
    const clock = new ServerClock();
    clock.observe(new Date(Date.now() + 600_000).toUTCString());
    expect(clock.offsetMs).toBeGreaterThan(598_000);
    clock.observe(new Date(Date.now()).toUTCString());
    expect(clock.offsetMs).toBe(0);
  });
});

describe('a cached response', () => {
  test("a Date from a cache (with Age) is not read as the server's clock", async () => {
    const { sim } = skewed(0);
    const fetch = async (input: string | URL | Request, init?: RequestInit) => {
      const response = await sim.fetch(new Request(input, init));
      const headers = new Headers(response.headers);
      headers.set('date', new Date(Date.now() - 3_600_000).toUTCString()); // first sent an hour ago
      headers.set('age', '3600');
      return new Response(response.body, { status: response.status, headers });
    };
    const client = new SeoVisibilityClient({
      apiKey: sim.keys.readWrite,
      baseUrl: sim.baseUrl,
      fetch: fetch as typeof globalThis.fetch,
      rateLimit: { windows: false },
    });
    const { meta } = await client.projects.list({ limit: 1 }).withResponse();
    const resetIn = meta.rate_limit!.reset * 1000 - Date.now();
    expect(resetIn).toBeGreaterThan(0);
    expect(resetIn).toBeLessThanOrEqual(2_000); // read as sent, not moved an hour later
  });
});
