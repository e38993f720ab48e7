import { afterEach, describe, expect, it } from 'vitest';
import { createSimulator, listenAccounts } from '../../src/testing/index.js';
import type { SimulatorServer } from '../../src/testing/index.js';

describe('listenAccounts', () => {
  let server: SimulatorServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  const get = (key: string) => fetch(`${server!.url}/projects`, { headers: { authorization: `Bearer ${key}` } });

  it("serves each key its own account's data", async () => {
    const a = createSimulator({ seed: 1 });
    const b = createSimulator({ seed: 2 });
    server = await listenAccounts([a, b]);
    const ids = async (key: string) =>
      ((await (await get(key)).json()) as { data: Array<{ id: string }> }).data.map((p) => p.id);
    expect(await ids(a.keys.readOnly)).toEqual(a.data.listedProjects.map((p) => p.id));
    expect(await ids(b.keys.readWrite)).toEqual(b.data.listedProjects.map((p) => p.id));
    expect(await ids(a.keys.readOnly)).not.toEqual(await ids(b.keys.readOnly));
  });

  it("enforces each account's own windows: one key's spending leaves the other's budget whole", async () => {
    const windows = [{ limit: 2, intervalMs: 60_000 }];
    // A fixed clock just after a window boundary: the window cannot roll over mid-test.
    const now = () => 1_800_000_000_000;
    const a = createSimulator({ seed: 1, rateLimit: { windows }, now });
    const b = createSimulator({ seed: 2, rateLimit: { windows }, now });
    server = await listenAccounts([a, b]);
    expect([
      (await get(a.keys.readOnly)).status,
      (await get(a.keys.readOnly)).status,
      (await get(a.keys.readOnly)).status,
    ]).toEqual([200, 200, 429]);
    expect((await get(b.keys.readOnly)).status).toBe(200);
    expect(a.requests.length).toBe(3);
    expect(b.requests.length).toBe(1);
  });

  it('answers 401 to a key no account holds', async () => {
    server = await listenAccounts([createSimulator({ seed: 1 }), createSimulator({ seed: 2 })]);
    const res = await get('sv_live_not_a_key_of_anyone');
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('UNAUTHORIZED');
  });

  it('refuses an empty list, and simulators on different base paths', () => {
    expect(() => listenAccounts([])).toThrow(/non-empty array/);
    expect(() => listenAccounts([createSimulator(), createSimulator({ baseUrl: 'http://localhost/v2' })])).toThrow(
      /same base path/,
    );
  });
});
