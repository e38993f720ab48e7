import { describe, expect, it } from 'vitest';
import { FORMS, useForm } from './support/forms.js';

/** A fixed start aligned to every test window, so resets are exact. */
const START = 1_700_000_000_000;

describe.each(FORMS)('simulator rate limits over $name', (form) => {
  let clock = START;
  const ctx = useForm(form, () => {
    clock = START;
    return { now: () => clock, rateLimit: { windows: [{ limit: 20, intervalMs: 2000 }] } };
  });

  it('admits `limit` requests per fixed window per key, then 429 until reset', async () => {
    for (let i = 0; i < 20; i++) {
      const { status, body } = await ctx.api.get('/webhooks');
      expect(status).toBe(200);
      expect(body.meta.rate_limit).toEqual({ limit: 20, remaining: 19 - i, reset: (START + 2000) / 1000 });
    }
    const limited = await ctx.api.get('/webhooks');
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({
      success: false,
      error: { code: 'RATE_LIMITED', message: 'Rate limit exceeded. Try again later.' },
      meta: { rate_limit: { limit: 20, remaining: 0, reset: (START + 2000) / 1000 } },
    });
    // Budgets are per key: the read-only key still has its own.
    expect((await ctx.ro.get('/webhooks')).status).toBe(200);
    clock += 1999;
    expect((await ctx.api.get('/webhooks')).status).toBe(429);
    clock += 1;
    const after = await ctx.api.get('/webhooks');
    expect(after.status).toBe(200);
    // The 429s consumed nothing: the new window has exactly one request in it.
    expect(after.body.meta.rate_limit).toEqual({ limit: 20, remaining: 19, reset: (START + 4000) / 1000 });
  });

  it('counts errors that reached the API (403, 404) but not 401s', async () => {
    await ctx.api.get('/nothing');
    await ctx.ro.send('POST', '/webhooks', {});
    await fetch(`${ctx.run.baseUrl}/projects`, { headers: { authorization: 'Bearer wrong' } });
    expect((await ctx.api.get('/webhooks')).body.meta.rate_limit.remaining).toBe(18);
    expect((await ctx.ro.get('/webhooks')).body.meta.rate_limit.remaining).toBe(18);
  });
});

describe.each(FORMS)('simulator with several windows over $name', (form) => {
  let clock = START;
  const ctx = useForm(form, () => {
    clock = START;
    return {
      now: () => clock,
      rateLimit: {
        windows: [
          { limit: 5, intervalMs: 1000 },
          { limit: 8, intervalMs: 10_000 },
        ],
      },
    };
  });

  it('reports the most constrained window and blocks on whichever is exhausted', async () => {
    const remaining: number[] = [];
    for (let i = 0; i < 5; i++) remaining.push((await ctx.api.get('/webhooks')).body.meta.rate_limit.remaining);
    expect(remaining).toEqual([4, 3, 2, 1, 0]);
    expect((await ctx.api.get('/webhooks')).body.meta.rate_limit).toEqual({
      limit: 5,
      remaining: 0,
      reset: (START + 1000) / 1000,
    });
    clock += 1000;
    const next = await ctx.api.get('/webhooks');
    // 1 s window: 4 left; 10 s window: 2 left → the 10 s window is reported.
    expect(next.body.meta.rate_limit).toEqual({ limit: 8, remaining: 2, reset: (START + 10_000) / 1000 });
    await ctx.api.get('/webhooks');
    await ctx.api.get('/webhooks');
    const blocked = await ctx.api.get('/webhooks');
    expect(blocked.status).toBe(429);
    expect(blocked.body.meta.rate_limit).toEqual({ limit: 8, remaining: 0, reset: (START + 10_000) / 1000 });
  });
});

describe.each(FORMS)('simulator faults and request log over $name', (form) => {
  const ctx = useForm(form, { seed: 3 });

  it('injects status faults for the next N matching requests, without consuming budget', async () => {
    ctx.sim.inject({ match: { method: 'GET', path: '/projects' }, times: 2, fault: { type: 'status', status: 503 } });
    const a = await ctx.api.get('/projects');
    const b = await ctx.api.get('/projects');
    const c = await ctx.api.get('/projects');
    expect([a.status, b.status, c.status]).toEqual([503, 503, 200]);
    expect(a.body).toMatchObject({
      success: false,
      error: { code: 'INTERNAL_ERROR' },
      meta: { request_id: expect.any(String), rate_limit: expect.any(Object) },
    });
    expect(c.body.meta.rate_limit.remaining).toBe(199);
    expect(ctx.sim.requests.filter((r) => r.path === '/projects').map((r) => r.status)).toEqual([503, 503, 200]);
  });

  it('injects a 429 that looks like an exhausted budget', async () => {
    ctx.sim.inject({ fault: { type: 'status', status: 429 } });
    const { status, body } = await ctx.api.get('/webhooks');
    expect(status).toBe(429);
    expect(body.error).toEqual({ code: 'RATE_LIMITED', message: 'Rate limit exceeded. Try again later.' });
    expect(body.meta.rate_limit.remaining).toBe(0);
  });

  it('serves truncated JSON and HTML proxy pages', async () => {
    ctx.sim.inject({ match: { path: /\/webhooks$/ }, fault: { type: 'malformed' } });
    ctx.sim.inject({ match: { path: /\/webhooks$/ }, fault: { type: 'html', status: 502 } });
    const malformed = await ctx.api.get('/webhooks');
    expect(malformed.status).toBe(200);
    expect(() => JSON.parse(malformed.text)).toThrow(SyntaxError);
    const html = await ctx.api.get('/webhooks');
    expect(html.status).toBe(502);
    expect(html.headers.get('content-type')).toContain('text/html');
    expect(html.text).toContain('<html>');
    expect((await ctx.api.get('/webhooks')).status).toBe(200);
  });

  it('drops the connection so fetch rejects with TypeError', async () => {
    const handle = ctx.sim.inject({ match: { path: '/webhooks' }, times: Infinity, fault: { type: 'drop' } });
    await expect(ctx.api.get('/webhooks')).rejects.toBeInstanceOf(TypeError);
    await expect(ctx.api.get('/webhooks')).rejects.toBeInstanceOf(TypeError);
    expect((await ctx.api.get('/projects')).status).toBe(200);
    handle.cancel();
    expect((await ctx.api.get('/webhooks')).status).toBe(200);
    expect(ctx.sim.requests.filter((r) => r.path === '/webhooks').map((r) => r.status)).toEqual([null, null, 200]);
  });

  it('delays a response, and lets the client give up on it', async () => {
    ctx.sim.inject({ fault: { type: 'delay', ms: 80 } });
    const started = performance.now();
    expect((await ctx.api.get('/webhooks')).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(70);
    ctx.sim.inject({ fault: { type: 'delay', ms: 1500 } });
    await expect(ctx.api.send('GET', '/webhooks', undefined, { signal: AbortSignal.timeout(50) })).rejects.toThrow();
  });

  it('logs requests with the key redacted, parsed query and body', async () => {
    await ctx.api.get('/projects', { limit: 2, product_mode: 'software' });
    await ctx.api.send('POST', '/webhooks', {
      url: 'https://x.example',
      project_id: ctx.sim.data.listedProjects[0]!.id,
      events: ['audit.started'],
    });
    const [get, post] = ctx.sim.requests;
    expect(get).toMatchObject({
      method: 'GET',
      path: '/projects',
      query: { limit: '2', product_mode: 'software' },
      status: 200,
      body: null,
      at: expect.any(Number),
    });
    expect(get!.headers['authorization']).toBe('Bearer [REDACTED]');
    expect(JSON.stringify(ctx.sim.requests)).not.toContain(ctx.sim.keys.readWrite);
    expect(post).toMatchObject({ method: 'POST', path: '/webhooks', status: 201, body: { url: 'https://x.example' } });
  });

  it('reset() clears faults, the log and rate counters but keeps data', async () => {
    ctx.sim.inject({ match: { method: 'GET' }, times: 5, fault: { type: 'status', status: 500 } });
    await ctx.api.get('/projects');
    await ctx.api.send('POST', '/projects', { websiteUrl: 'https://kept.example' });
    ctx.sim.reset();
    expect(ctx.sim.requests).toHaveLength(0);
    const after = await ctx.api.get('/projects');
    expect(after.status).toBe(200);
    expect(after.body.meta.rate_limit.remaining).toBe(199);
    expect(after.body.meta.pagination.total).toBe(5);
  });
});
