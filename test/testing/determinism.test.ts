import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSimulator } from '../../src/testing/index.js';
import type { Simulator } from '../../src/testing/index.js';

const START = Date.UTC(2025, 2, 3, 9, 30);

async function get(sim: Simulator, path: string, key = sim.keys.readWrite): Promise<any> {
  const res = await sim.fetch(`${sim.baseUrl}${path}`, { headers: { authorization: `Bearer ${key}` } });
  return res.json();
}

async function snapshot(sim: Simulator): Promise<unknown[]> {
  const [project] = sim.data.listedProjects;
  const p = `/projects/${project!.id}`;
  const prompt = sim.data.prompts(project!.id)[0]!;
  const audit = sim.data.latestAudit(project!.id)!;
  const row = sim.data.keywords(project!.id).row(7);
  const paths = [
    '/projects',
    `${p}/rankings/keywords?limit=200&offset=100`,
    `${p}/rankings/keywords/${row.id}/history`,
    `${p}/prompts`,
    `${p}/prompts/${prompt.id}/history`,
    `${p}/audits`,
    `${p}/audits/${audit.id}/issues`,
    `${p}/backlinks/anchors`,
    `${p}/backlinks/domains`,
    `${p}/content?limit=1000`,
    `${p}/reports`,
    '/webhooks',
  ];
  return Promise.all(paths.map((path) => get(sim, path)));
}

describe('simulator determinism', () => {
  it('serves identical data for the same seed and start time', async () => {
    const a = createSimulator({ seed: 9, now: () => START });
    const b = createSimulator({ seed: 9, now: () => START });
    expect(a.keys).toEqual(b.keys);
    expect(await snapshot(a)).toEqual(await snapshot(b));
  });

  it('changes the data with the seed', async () => {
    const a = createSimulator({ seed: 1, now: () => START });
    const b = createSimulator({ seed: 2, now: () => START });
    expect(a.keys.readWrite).not.toBe(b.keys.readWrite);
    expect(a.data.projects.map((p) => p.id)).not.toEqual(b.data.projects.map((p) => p.id));
    const rowA = a.data.keywords(a.data.listedProjects[0]!.id).row(0);
    const rowB = b.data.keywords(b.data.listedProjects[0]!.id).row(0);
    expect(rowA).not.toEqual(rowB);
  });

  it('keeps ids and names independent of the start time', () => {
    const a = createSimulator({ seed: 4, now: () => START });
    const b = createSimulator({ seed: 4, now: () => START + 40 * 86_400_000 });
    expect(a.data.projects.map((p) => [p.id, p.name, p.productMode, p.status])).toEqual(
      b.data.projects.map((p) => [p.id, p.name, p.productMode, p.status]),
    );
    const id = a.data.listedProjects[0]!.id;
    expect(a.data.keywords(id).row(42).id).toBe(b.data.keywords(id).row(42).id);
    expect(a.data.keywords(id).row(42).keyword).toBe(b.data.keywords(id).row(42).keyword);
  });

  it('runs the same transitions and events for the same seed', async () => {
    const make = () => {
      const sent: string[] = [];
      const sim = createSimulator({
        seed: 6,
        now: () => START,
        deliver: async (url, init) => (sent.push(`${url} ${String(init.body)}`), new Response(null, { status: 200 })),
      });
      return { sim, sent };
    };
    const runs = [make(), make()];
    for (const { sim } of runs) {
      const [first] = sim.data.listedProjects;
      const events = [
        'content.created',
        'content.status_changed',
        'audit.started',
        'audit.completed',
        'keywords.updated',
        'prompts.updated',
      ];
      await get(sim, '/webhooks');
      const res = await sim.fetch(`${sim.baseUrl}/webhooks`, {
        method: 'POST',
        headers: { authorization: `Bearer ${sim.keys.readWrite}`, 'content-type': 'application/json' },
        body: JSON.stringify({ url: 'https://hooks.test/x', project_id: first!.id, events }),
      });
      expect(res.status).toBe(201);
      await sim.advance(10 * 86_400_000);
    }
    expect(runs[0]!.sent.length).toBeGreaterThan(20);
    expect(runs[0]!.sent).toEqual(runs[1]!.sent);
    expect(await snapshot(runs[0]!.sim)).toEqual(await snapshot(runs[1]!.sim));
  });

  // No wall-clock limit here (it asserted under 15 s and failed at 18 s on a busy machine): what
  // shows the keywords are generated lazily is that 100,000 of them page at all, in 100 requests.
  it('pages through 100,000 lazily generated keywords with unique ids', async () => {
    const sim = createSimulator({ keywordsPerProject: 100_000, rateLimit: false });
    const id = sim.data.listedProjects[0]!.id;
    const ids = new Set<string>();
    let offset = 0;
    let body: any;
    for (let page = 0; page < 101; page++) {
      body = await get(sim, `/projects/${id}/rankings/keywords?limit=1000&offset=${offset}`);
      for (const row of body.data) ids.add(row.id);
      offset += body.data.length;
      if (!body.meta.pagination.has_more) break;
    }
    expect(ids.size).toBe(100_000);
    expect(body.meta.pagination).toEqual({ total: 100_000, limit: 1000, offset: 99_000, has_more: false });
    expect(sim.requests).toHaveLength(100);
    const pairs = new Set(
      Array.from({ length: 5000 }, (_, i) => {
        const r = sim.data.keywords(id).row(i);
        return `${r.keyword}|${r.location}`;
      }),
    );
    expect(pairs.size).toBe(5000);
  });
});

describe('simulator fetch form', () => {
  it('rejects with TypeError on a dropped connection, like fetch', async () => {
    const sim = createSimulator();
    sim.inject({ fault: { type: 'drop' } });
    await expect(get(sim, '/projects')).rejects.toBeInstanceOf(TypeError);
    expect((await get(sim, '/projects')).success).toBe(true);
  });

  it('accepts custom keys and a custom base URL', async () => {
    const sim = createSimulator({
      baseUrl: 'https://api.example.test/seo/api/v1/',
      keys: { readOnly: 'acme_live_readonly' },
    });
    expect(sim.baseUrl).toBe('https://api.example.test/seo/api/v1');
    const body = await get(sim, '/projects', 'acme_live_readonly');
    expect(body.data).toHaveLength(4);
    expect(sim.keys.readWrite).toMatch(/^sv_live_rw_[0-9a-z]+$/);
  });

  // Bad createSimulator options: test/testing/options.test.ts.
  it('rejects a bad fault or a step back in time loudly', () => {
    const sim = createSimulator();
    expect(() => sim.inject({ fault: { type: 'status', status: 418 as 500 } })).toThrow(RangeError);
    return expect(sim.advance(-1)).rejects.toThrow(RangeError);
  });
});

describe('simulator entry point', () => {
  it('keeps node built-ins out of the browser-safe entry (only the CLI imports them statically)', () => {
    const root = join(import.meta.dirname, '../../src/testing');
    const files = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter(
      (f) => f.endsWith('.ts') && f !== 'cli.ts',
    );
    const offenders = files.filter((f) =>
      /^import\s+(?!type\b)[^;]*from\s+'node:/m.test(readFileSync(join(root, f), 'utf8')),
    );
    expect(offenders).toEqual([]);
  });

  it('imports msw (an optional peer) only from the testing/msw entry, so sim.fetch works without it', () => {
    const root = join(import.meta.dirname, '../../src/testing');
    const files = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    const importers = files.filter((f) => /from\s+'msw(\/[^']*)?'/.test(readFileSync(join(root, f), 'utf8')));
    expect(importers).toEqual(['msw.ts']);
  });
});
