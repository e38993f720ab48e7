/**
 * 1. Overhead: the SDK call (throttle on, ky, p-retry, every response parsed by zod's `safeParse`)
 * against a raw `fetch` + `JSON.parse` of the same bytes from the same loopback server, alternated,
 * median of many runs, in wall time and in CPU time.
 *
 * Targets: a validated 1,000-row page costs at most 2.0x the raw fetch in-process (issue 24; network
 * time dominates every real call), judged on CPU time: on a machine shared with other work, waiting
 * for a core inflates the longer call's wall time more (the unchanged code's wall-time ratio swung
 * from 1.2x to 2.4x between runs here), while CPU time counts only the work. Wall time is printed too. A small call is judged by its absolute overhead: at most 0.5 ms over
 * the raw fetch, which is 1% of the fastest real round trip (50 to 300 ms; the API allows one
 * request per 300 ms). On loopback its ratio looks large only because the round trip is ~0.2 ms.
 */
import { SeoVisibilityClient } from '../src/index.js';
import { createSimulator } from '../src/testing/index.js';
import { QUICK, type Row, cannedServer, ms, versus, versusCpu } from './lib.js';

/** Records real simulator responses, with a budget that never binds (this measures overhead, not pacing). */
async function recordBodies() {
  const sim = createSimulator({ seed: 5, keywordsPerProject: 5_000, rateLimit: false });
  const projectId = sim.data.listedProjects[0]!.id;
  const auth = { authorization: `Bearer ${sim.keys.readOnly}` };
  const paths = {
    list: `/api/v1/projects/${projectId}/rankings/keywords`,
    summary: `/api/v1/projects/${projectId}/backlinks/summary`,
  };
  const bodies: Record<string, string> = {};
  for (const [name, path] of Object.entries(paths)) {
    const query = name === 'list' ? '?limit=1000' : '';
    const json = await (await sim.fetch(`http://localhost${path}${query}`, { headers: auth })).json();
    json.meta.rate_limit = {
      limit: 1_000_000_000,
      remaining: 1_000_000_000,
      reset: Math.ceil(Date.now() / 1000) + 86_400,
    };
    bodies[path] = JSON.stringify(json);
  }
  return { projectId, key: sim.keys.readOnly, paths, bodies };
}

export async function overhead(): Promise<Row[]> {
  const { projectId, key, paths, bodies } = await recordBodies();
  const server = await cannedServer(bodies);
  const baseUrl = `${server.origin}/api/v1`;
  // The default client, with pacing windows too large to bind: the throttle runs, but never waits.
  const client = new SeoVisibilityClient({
    apiKey: key,
    baseUrl,
    rateLimit: { windows: [{ limit: 1e9, intervalMs: 60_000 }] },
  });
  const headers = { authorization: `Bearer ${key}`, accept: 'application/json' };
  const raw =
    (path: string, query = '') =>
    async () =>
      JSON.parse(await (await fetch(`${server.origin}${path}${query}`, { headers })).text());

  const rows: Row[] = [];
  try {
    const sdkPage = () => client.rankings.list(projectId, { limit: 1000 }).then((p) => p.items.length);
    const rawPage = raw(paths.list, '?limit=1000&offset=0');
    const list = await versus(sdkPage, rawPage, QUICK ? 20 : 300);
    const cpu = await versusCpu(sdkPage, rawPage, QUICK ? 20 : 300);
    rows.push({
      section: '1. Overhead',
      figure: 'rankings.list(id, { limit: 1000 }), validated by zod',
      value: `${ms(list.a)} (${list.ratio.toFixed(2)}x); CPU ${ms(cpu.a)} (${cpu.ratio.toFixed(2)}x)`,
      peer: `raw fetch + JSON.parse ${ms(list.b)}; CPU ${ms(cpu.b)}`,
      target: '≤ 2.0x (CPU time; wall time beside it)',
      // CPU time: on this shared 2-core machine the wall-time ratio of the same unchanged code swung
      // from 1.2x to 2.4x between runs (waits for a core, GC helper threads), so it cannot judge 2.0x.
      pass: cpu.ratio <= 2.0,
    });
    const small = await versus(() => client.backlinks.summary(projectId), raw(paths.summary), QUICK ? 50 : 2_000);
    rows.push({
      section: '1. Overhead',
      figure: 'backlinks.summary(id), validated',
      value: `${ms(small.a)} (+${ms(small.a - small.b)}, ${small.ratio.toFixed(2)}x)`,
      peer: `raw fetch + JSON.parse ${ms(small.b)}`,
      target: '≤ +0.5 ms (1% of a 50 ms round trip)',
      pass: small.a - small.b <= 0.5,
    });
  } finally {
    await server.close();
  }
  return rows;
}
