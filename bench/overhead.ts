/**
 * 1. Overhead: the SDK call (throttle on, validated) against a raw `fetch` + `JSON.parse` of the
 * same bytes from the same loopback server, alternated, median of many runs.
 */
import { SeoVisibilityClient } from '../src/index.js';
import { createSimulator } from '../src/testing/index.js';
import { QUICK, type Row, cannedServer, ms, versus } from './lib.js';

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
    json.meta.rate_limit = { limit: 1_000_000_000, remaining: 1_000_000_000, reset: Math.ceil(Date.now() / 1000) + 86_400 };
    bodies[path] = JSON.stringify(json);
  }
  return { projectId, key: sim.keys.readOnly, paths, bodies };
}

export async function overhead(): Promise<Row[]> {
  const { projectId, key, paths, bodies } = await recordBodies();
  const server = await cannedServer(bodies);
  const baseUrl = `${server.origin}/api/v1`;
  // The default client, with pacing windows too large to bind: the throttle runs, but never waits.
  const client = new SeoVisibilityClient({ apiKey: key, baseUrl, rateLimit: { windows: [{ limit: 1e9, intervalMs: 60_000 }] } });
  const headers = { authorization: `Bearer ${key}`, accept: 'application/json' };
  const raw = (path: string, query = '') => async () => JSON.parse(await (await fetch(`${server.origin}${path}${query}`, { headers })).text());

  const rows: Row[] = [];
  try {
    const list = await versus(() => client.rankings.list(projectId, { limit: 1000 }).then((p) => p.items.length), raw(paths.list, '?limit=1000&offset=0'), QUICK ? 20 : 300);
    rows.push({
      section: '1. Overhead',
      figure: 'rankings.list(id, { limit: 1000 }), validated',
      value: `${ms(list.a)} (${list.ratio.toFixed(2)}x)`,
      peer: `raw fetch + JSON.parse ${ms(list.b)}`,
      target: '≤ 1.15x',
      pass: list.ratio <= 1.15,
    });
    const small = await versus(() => client.backlinks.summary(projectId), raw(paths.summary), QUICK ? 50 : 2_000);
    rows.push({
      section: '1. Overhead',
      figure: 'backlinks.summary(id), validated',
      value: `${ms(small.a)} (${small.ratio.toFixed(2)}x)`,
      peer: `raw fetch + JSON.parse ${ms(small.b)}`,
      target: '≤ 1.30x',
      pass: small.ratio <= 1.3,
    });
  } finally {
    await server.close();
  }
  return rows;
}
