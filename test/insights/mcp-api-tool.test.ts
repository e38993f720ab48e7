import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SeoVisibilityClient } from '../../src/index.js';
import { InsightError } from '../../src/insights/errors.js';
import { apiTool } from '../../src/insights/mcp-api-tool.js';
import { createSimulator, type SimulatorServer } from '../../src/testing/index.js';

// The api tool spends the key's budget only down to the reserve: a day window of 10 requests and a
// reserve of 7 let three calls through (the server reports what is left) and refuse the fourth
// before anything is sent.
const DAY = 86_400_000;
const sim = createSimulator({
  seed: 3,
  keywordsPerProject: 5,
  rateLimit: { windows: [{ limit: 10, intervalMs: DAY }] },
});
let server: SimulatorServer;

beforeAll(async () => {
  server = await sim.listen({ host: '127.0.0.1', port: 0 });
});

afterAll(async () => {
  await server?.close();
});

describe('the api tool', () => {
  it('stops at the reserve of the day budget, before sending', async () => {
    const client = new SeoVisibilityClient({
      apiKey: sim.keys.readOnly,
      baseUrl: server.url,
      rateLimit: { windows: false },
    });
    const tool = apiTool({ client, windows: [{ limit: 10, intervalMs: DAY }], reserve: 7, allowWrites: false });
    for (let i = 0; i < 3; i++)
      expect(((await tool.run({ path: '/projects' })) as { data: unknown[] }).data.length).toBeGreaterThan(0);
    const served = sim.requests.length;
    const refused = await tool.run({ path: '/projects' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(InsightError);
    expect((refused as Error).message).toMatch(/stops at the reserve of 7 requests left in today's budget/);
    expect(sim.requests.length).toBe(served);
  });

  it('offers GET only unless writes are allowed', () => {
    const client = new SeoVisibilityClient({ apiKey: sim.keys.readOnly, baseUrl: server.url });
    const methods = (allowWrites: boolean) =>
      apiTool({ client, windows: [{ limit: 10, intervalMs: DAY }], reserve: 0, allowWrites }).input.shape['method'];
    const options = (allowWrites: boolean) =>
      (methods(allowWrites) as unknown as { unwrap(): { options: string[] } }).unwrap().options;
    expect(options(false)).toEqual(['GET']);
    expect(options(true)).toEqual(['GET', 'POST', 'PATCH', 'DELETE']);
  });
});
