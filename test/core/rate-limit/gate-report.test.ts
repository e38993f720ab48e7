/**
 * What the throttle learns from each response (src/core/rate-limit/gate-report.ts): a gateway's bare 429 with
 * `Retry-After` holds every call, not only its own (issue 22 §4).
 */
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { SeoVisibilityClient } from '../../../src/index.js';
import { createSimulator } from '../../../src/testing/index.js';
import { BARE_429_HOLD_MS, refusalOf } from '../../../src/core/rate-limit/gate-report.js';

beforeEach(() => {
  vi.useFakeTimers({ now: new Date('2026-11-21T12:00:00.000Z'), toFake: ['setTimeout', 'clearTimeout', 'Date'] });
});
afterEach(() => {
  vi.useRealTimers();
});

/**
 * A CDN in front of the simulator: at most `limit` requests per fixed `windowMs`; over it, a bare
 * `429 text/plain` with `Retry-After` in whole seconds, as a gateway sends it (no envelope, no
 * `meta.rate_limit`). The API behind it has room to spare.
 */
function behindGateway(limit: number, windowMs: number) {
  const sim = createSimulator({ seed: 22, now: () => Date.now(), rateLimit: false });
  const statuses: number[] = [];
  let windowStart = Date.now();
  let count = 0;
  const fetch = async (input: string | URL | Request, init?: RequestInit) => {
    const now = Date.now();
    if (now - windowStart >= windowMs) {
      windowStart = now - ((now - windowStart) % windowMs);
      count = 0;
    }
    if (++count > limit) {
      statuses.push(429);
      const retryAfter = Math.ceil((windowStart + windowMs - now) / 1000);
      return new Response('Too Many Requests', {
        status: 429,
        headers: { 'content-type': 'text/plain', 'retry-after': String(retryAfter) },
      });
    }
    const response = await sim.fetch(new Request(input, init));
    statuses.push(response.status);
    return response;
  };
  return {
    sim,
    statuses,
    options: { apiKey: sim.keys.readWrite, baseUrl: sim.baseUrl, fetch: fetch as typeof globalThis.fetch },
  };
}

async function runAll(
  calls: Array<Promise<unknown>>,
  stepMs: number,
  maxSteps: number,
): Promise<{ done: number; failed: unknown[] }> {
  let done = 0;
  const failed: unknown[] = [];
  for (const call of calls)
    void call.then(
      () => done++,
      (error: unknown) => failed.push(error),
    );
  for (let step = 0; step < maxSteps && done + failed.length < calls.length; step++)
    await vi.advanceTimersByTimeAsync(stepMs);
  return { done, failed };
}

describe("a gateway's bare 429 informs the gate", () => {
  test('60 calls, 10 at a time, behind a gateway allowing 10 per 5 s: the first 429 holds every call, and the 429s stay few', async () => {
    const { statuses, options } = behindGateway(10, 5_000);
    const client = new SeoVisibilityClient({ ...options, maxRetries: 10 });
    // Ten workers, each sending its calls one after the other (a typical worker pool).
    const worker = async () => {
      for (let i = 0; i < 6; i++) await client.projects.list({ limit: 1 });
    };
    const { done, failed } = await runAll(Array.from({ length: 10 }, worker), 250, 400);
    expect(failed.map(String)).toEqual([]);
    expect(done).toBe(10);
    const refused = statuses.filter((s) => s === 429).length;
    // 60 calls need 6 windows. A 429 holds the gate until Retry-After, so at most the calls already
    // in flight when one is refused are refused too: one window's worth, not one per call and retry.
    expect(refused).toBeLessThanOrEqual(10);
  });

  test('a bare 429 without Retry-After still holds the other calls for a moment', async () => {
    let n = 0;
    const sent: number[] = [];
    const fetch = async () => {
      sent.push(Date.now());
      if (++n === 1) return new Response('busy', { status: 429, headers: { 'content-type': 'text/plain' } });
      return new Response(JSON.stringify({ success: true, data: { items: [] }, meta: {} }), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
    };
    const client = new SeoVisibilityClient({
      apiKey: 'sv_live_x',
      baseUrl: 'https://a.example.com/api/v1',
      fetch: fetch as typeof globalThis.fetch,
      rateLimit: { windows: false },
    });
    const first = client.request({ method: 'GET', path: '/projects' });
    await vi.advanceTimersByTimeAsync(0);
    const second = client.request({ method: 'GET', path: '/projects' });
    await runAll([first, second], 100, 100);
    // The second call was not sent while the gateway's refusal held the budget.
    expect(sent[1]! - sent[0]!).toBeGreaterThanOrEqual(1_000);
  });
});

describe('refusalOf', () => {
  const now = 1_800_000_000_000;
  test('a gateway 429 with Retry-After is a timed refusal (its pace may be learnt)', () => {
    expect(refusalOf(429, '5', undefined, now)).toEqual({ untilMs: now + 5_000, timed: true });
  });
  test('a 429 that names no time holds for a moment, teaching nothing', () => {
    expect(refusalOf(429, null, undefined, now)).toEqual({ untilMs: now + BARE_429_HOLD_MS, timed: false });
  });
  test("the API's own report governs, even one already due; a later Retry-After extends it", () => {
    expect(refusalOf(429, null, { reset: now / 1000 }, now)).toBeUndefined();
    expect(refusalOf(429, '1', { reset: now / 1000 + 10 }, now)).toBeUndefined();
    expect(refusalOf(429, '30', { reset: now / 1000 + 10 }, now)).toEqual({ untilMs: now + 30_000, timed: false });
  });
  test('other statuses are no refusal', () => {
    expect(refusalOf(503, '5', undefined, now)).toBeUndefined();
  });
});
