/**
 * The chaos mode itself: deterministic from its seed, every kind reachable and shaped as the attack
 * it stands for, its options checked like every other option.
 */
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../src/index.js';
import {
  CHAOS_KIND_NAMES,
  CHAOS_KINDS,
  type ChaosKind,
  createSimulator,
  type Simulator,
} from '../../src/testing/index.js';

const headers = (sim: Simulator) => ({ authorization: `Bearer ${sim.keys.readOnly}` });

/** Reads a list page by page (limit 50) the way a client would, recording each status and body. */
async function crawl(
  sim: Simulator,
  path: string,
  pages = 6,
): Promise<Array<{ status: number; type: string; text: string; headers: Headers }>> {
  const out: Array<{ status: number; type: string; text: string; headers: Headers }> = [];
  for (let page = 0; page < pages; page++) {
    for (let attempt = 0; attempt < 4; attempt++) {
      const response = await sim
        .fetch(`${sim.baseUrl}${path}?limit=50&offset=${page * 50}`, { headers: headers(sim) })
        .catch(() => undefined);
      const text = response ? await response.text().catch(() => '') : '';
      if (response)
        out.push({
          status: response.status,
          type: response.headers.get('content-type') ?? '',
          text,
          headers: response.headers,
        });
      if (response?.ok) break;
    }
  }
  return out;
}

function chaosSim(seed: number, kinds?: ChaosKind[], rate = 0.5): Simulator {
  return createSimulator({
    seed: 2,
    now: () => Date.UTC(2026, 5, 10, 12),
    rateLimit: false,
    chaos: { seed, rate, listItems: 300, slowChunkMs: 0, ...(kinds ? { kinds } : {}) },
  });
}

describe('chaos mode', () => {
  it('replays exactly from its seed: the same journal, truth changes and bodies, whatever else ran before', async () => {
    const runOnce = async () => {
      const sim = chaosSim(1234);
      const project = sim.data.listedProjects[0]?.id as string;
      const bodies = await crawl(sim, `/projects/${project}/backlinks/anchors`);
      sim.chaos?.nextRun();
      bodies.push(...(await crawl(sim, `/projects/${project}/content`)));
      return {
        journal: sim.chaos?.journal,
        changes: sim.chaos?.changes,
        bodies: bodies.map((b) => [b.status, b.text]),
      };
    };
    const first = await runOnce();
    expect(first.journal?.length).toBeGreaterThan(3);
    expect(await runOnce()).toEqual(first);
  });

  it('another seed makes other choices', async () => {
    const journals = await Promise.all(
      [11, 12].map(async (seed) => {
        const sim = chaosSim(seed);
        await crawl(sim, `/projects/${sim.data.listedProjects[0]?.id}/backlinks/anchors`);
        return sim.chaos?.journal.map((e) => `${e.kind} ${e.at}`);
      }),
    );
    expect(journals[0]).not.toEqual(journals[1]);
  });

  it('every kind names the attack catalogue class it stands for', () => {
    for (const kind of CHAOS_KIND_NAMES)
      expect(CHAOS_KINDS[kind].catalogue, kind).toMatch(/^(Time|The server lies|Bodies|Secrets)/);
  });

  it('each request-level kind happens and looks like the real thing', async () => {
    const seen = new Map<string, string>();
    for (let seed = 1; seed <= 40 && seen.size < 6; seed++) {
      const sim = chaosSim(seed, ['gateway-429', 'server-error', 'drop', 'cut-body', 'slow-body', 'key-echo'], 0.6);
      for (const b of await crawl(sim, `/projects/${sim.data.listedProjects[0]?.id}/backlinks/anchors`, 3)) {
        if (b.status === 429 && b.type.startsWith('text/plain') && b.headers.get('retry-after'))
          seen.set('gateway-429', b.text);
        if (b.status >= 500 && b.type.includes('html')) seen.set('html 5xx', b.text.slice(0, 40));
        if (b.status === 500 && b.text.includes('"success":true'))
          seen.set('success envelope with 500', b.text.slice(0, 40));
        if (b.status === 200 && b.type.includes('json') && !isJson(b.text)) seen.set('cut body', b.text.slice(-20));
        if (
          b.headers.get('x-echo-authorization')?.includes(sim.keys.readOnly) &&
          b.text.includes(`req_${sim.keys.readOnly}`)
        )
          seen.set('key echo', 'header and request id');
      }
      if (sim.chaos?.journal.some((e) => e.kind === 'drop')) seen.set('drop', 'connection dropped');
    }
    expect([...seen.keys()].sort()).toEqual(
      ['cut body', 'drop', 'gateway-429', 'html 5xx', 'key echo', 'success envelope with 500'].sort(),
    );
  });

  it('list drift changes the truth: sim.data reads the list as changed, and the journal says how', async () => {
    const sim = chaosSim(77, ['list-drift'], 1);
    const project = sim.data.listedProjects[0]?.id as string;
    const before = sim.data.backlinks(project).anchors.map((a) => a.anchor_text);
    await crawl(sim, `/projects/${project}/backlinks/anchors`);
    const after = sim.data.backlinks(project).anchors.map((a) => a.anchor_text);
    const changes = sim.chaos?.changes.filter((c) => c.op !== 'pad') ?? [];
    expect(changes.length).toBeGreaterThan(0);
    for (const c of changes.filter((x) => x.op === 'delete')) expect(after).not.toContain(c.key);
    for (const c of changes.filter((x) => x.op === 'insert')) expect(after).toContain(c.key);
    expect(after).not.toEqual(before);
  });

  it('skew shifts the Date header and meta.rate_limit.reset by the same whole minutes', async () => {
    const now = Date.UTC(2026, 5, 10, 12);
    for (let seed = 1; seed < 30; seed++) {
      const sim = createSimulator({ seed: 2, now: () => now, chaos: { seed, kinds: ['skew'] } });
      const skew = sim.chaos?.skewMs ?? 0;
      if (skew === 0) continue;
      const plain = createSimulator({ seed: 2, now: () => now });
      const [a, b] = await Promise.all(
        [sim, plain].map((s) => s.fetch(`${s.baseUrl}/projects`, { headers: headers(s) })),
      );
      expect(Date.parse(a?.headers.get('date') ?? '') - now).toBe(skew);
      const reset = async (r: Response | undefined) =>
        ((await r?.json()) as { meta: { rate_limit: { reset: number } } } | undefined)?.meta.rate_limit.reset ??
        Number.NaN;
      expect((await reset(a)) - (await reset(b))).toBe(skew / 1000);
      return;
    }
    throw new Error('no seed below 30 skewed the clock');
  });

  it('hostile names, 1,700-field records, type changes and hostile values reach the body, key fields untouched', async () => {
    const found = new Set<string>();
    for (let seed = 1; seed <= 30 && found.size < 4; seed++) {
      const sim = chaosSim(seed, ['hostile-names', 'wide-record', 'type-change', 'hostile-values'], 0.8);
      const ids = new Set(
        sim.data.backlinks(sim.data.listedProjects[0]?.id as string).anchors.map((a) => a.anchor_text),
      );
      const types = new Set<string>();
      for (const b of await crawl(sim, `/projects/${sim.data.listedProjects[0]?.id}/backlinks/anchors`, 3)) {
        const data = (JSON.parse(b.text) as { data: Array<Record<string, unknown>> }).data;
        for (const r of data) expect(ids.has(r['anchor_text'] as string)).toBe(true);
        if (data.some((r) => 'group' in r || 'order' in r || 'we"ird \'name' in r)) found.add('names');
        if (data.some((r) => Object.keys(r).length > 1_700)) found.add('wide');
        if (data.some((r) => Object.values(r).some((v) => typeof v === 'string' && /[\u0000\ud800\u001b]/.test(v))))
          found.add('values');
        for (const r of data) types.add(typeof r['chaos_metric']);
      }
      if (types.size > 1) found.add('type change');
    }
    expect([...found].sort()).toEqual(['names', 'type change', 'values', 'wide']);
  });

  it('bad options fail at once, naming the option and what is allowed', () => {
    const refuse = (chaos: unknown) => {
      try {
        createSimulator({ chaos } as Parameters<typeof createSimulator>[0]);
      } catch (error) {
        expect(error).toBeInstanceOf(InvalidArgumentError);
        return (error as Error).message;
      }
      throw new Error('accepted');
    };
    expect(refuse({ seed: 1.5 })).toMatch(/chaos\.seed.*integer/);
    expect(refuse({ seed: 1, rate: 2 })).toMatch(/chaos\.rate/);
    expect(refuse({ seed: 1, kinds: ['skew', 'meteor'] })).toMatch(/chaos\.kinds\[1\].*skew/);
    expect(refuse({ seed: 1, sede: 2 })).toMatch(/seed/);
  });

  it('is off by default: no journal, answers as before', async () => {
    const sim = createSimulator({ seed: 2 });
    expect(sim.chaos).toBeUndefined();
    expect((await sim.fetch(`${sim.baseUrl}/projects`, { headers: headers(sim) })).status).toBe(200);
  });
});

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
