import { describe, expect, it } from 'vitest';
import { InvalidArgumentError, SeoVisibilityClient } from '../../src/index.js';
import { createSimulator, type Simulator, type SimulatorOptions } from '../../src/testing/index.js';

// A clock that never moves: a test that fills a window never straddles a window boundary.
const START = Date.UTC(2026, 0, 5, 9, 0, 0, 1);
const frozen = () => START;

async function status(sim: Simulator): Promise<{ status: number; reset: number | undefined }> {
  const res = await sim.fetch(`${sim.baseUrl}/projects`, { headers: { authorization: `Bearer ${sim.keys.readOnly}` } });
  const body = (await res.json()) as { meta?: { rate_limit?: { reset: number } } };
  return { status: res.status, reset: body.meta?.rate_limit?.reset };
}

function refusal(options: unknown): InvalidArgumentError {
  try {
    createSimulator(options as SimulatorOptions);
  } catch (error) {
    if (error instanceof InvalidArgumentError) return error;
    throw error;
  }
  throw new Error('createSimulator accepted the options');
}

describe('createSimulator options', () => {
  it("speedup runs the documented windows faster, and sim.rateWindows says how fast, in the client's shape", async () => {
    const sim = createSimulator({ now: frozen, speedup: 60 });
    expect(sim.rateWindows).toEqual([
      { limit: 200, intervalMs: 1_000 },
      { limit: 5_000, intervalMs: 60_000 },
      { limit: 50_000, intervalMs: 1_440_000 },
    ]);
    for (let i = 0; i < 200; i++) expect((await status(sim)).status).toBe(200);
    const refused = await status(sim);
    expect(refused.status).toBe(429);
    // The minute window now lasts a second: its reset is at most a second away, not a minute.
    expect(refused.reset! * 1000 - START).toBeLessThanOrEqual(1_000);
  });

  it('speedup also divides windows of your own', () => {
    const sim = createSimulator({ speedup: 10, rateLimit: { windows: [{ limit: 5, intervalMs: 10_000 }] } });
    expect(sim.rateWindows).toEqual([{ limit: 5, intervalMs: 1_000 }]);
  });

  it('without speedup, the windows are the documented ones; without limits, there are none', () => {
    expect(createSimulator().rateWindows).toEqual([
      { limit: 200, intervalMs: 60_000 },
      { limit: 5_000, intervalMs: 3_600_000 },
      { limit: 50_000, intervalMs: 86_400_000 },
    ]);
    expect(createSimulator({ rateLimit: false, speedup: 60 }).rateWindows).toEqual([]);
  });

  it('a client paced on sim.rateWindows gets no 429 from a simulator that runs 60× faster', async () => {
    const sim = createSimulator({
      now: frozen,
      speedup: 60,
      rateLimit: { windows: [{ limit: 30, intervalMs: 60_000 }] },
    });
    const client = new SeoVisibilityClient({
      apiKey: sim.keys.readOnly,
      baseUrl: sim.baseUrl,
      fetch: sim.fetch,
      rateLimit: { windows: sim.rateWindows },
      maxRetries: 0,
    });
    // 30 calls fill the (frozen) window: all pass, and the client sends nothing it would have to retry.
    await Promise.all(Array.from({ length: 30 }, () => client.projects.list()));
    expect(sim.requests.filter((r) => r.status === 429)).toEqual([]);
  });

  it('an unknown option is refused with the closest known one, as the client does', () => {
    const error = refusal({ speedUp: 60 });
    expect(error.argument).toBe('speedUp');
    expect(error.message).toBe('Invalid speedUp: not an option; did you mean speedup?');
  });

  it('a window is spelled as the client spells it: intervalMs', () => {
    const error = refusal({ rateLimit: { windows: [{ limit: 2, windowMs: 1_000 }] } });
    expect(error.message).toBe(
      'Invalid rateLimit.windows[0].windowMs: not an option; did you mean rateLimit.windows[0].intervalMs?',
    );
  });

  it.each([
    [{ speedup: 0 }, 'speedup'],
    [{ speedup: Number.POSITIVE_INFINITY }, 'speedup'],
    [{ keywordsPerProject: -1 }, 'keywordsPerProject'],
    [{ keywordsPerProject: 1.5 }, 'keywordsPerProject'],
    [{ seed: Number.NaN }, 'seed'],
    [{ rateLimit: { windows: [] } }, 'rateLimit.windows'],
    [{ rateLimit: { windows: [{ limit: 0, intervalMs: 1_000 }] } }, 'rateLimit.windows[0].limit'],
    [{ rateLimit: true }, 'rateLimit'],
    [{ latencyMs: -5 }, 'latencyMs'],
    [{ baseUrl: 'not a url' }, 'baseUrl'],
    [{ keys: { readOnly: 7 } }, 'keys.readOnly'],
    [{ plan: { active: 'yes' } }, 'plan.active'],
    [{ deliver: 'https://example.test' }, 'deliver'],
    ['fast', 'options'],
  ])('%j is refused, naming %s', (options, argument) => {
    expect(refusal(options).argument).toBe(argument);
  });
});
