import { DOCUMENTED_WINDOWS } from './src/sync/index.js';
import { createFleet } from './src/fleet/index.js';
import { FAST_QUEUE, startFleetEnv, startWorker } from './test/fleet/support/fleet-env.js';
const windows = DOCUMENTED_WINDOWS.map((w) => ({ limit: w.limit, intervalMs: w.intervalMs / 60 }));
const ids = Array.from({ length: 6 }, (_, i) => `c${i}`);
const env = await startFleetEnv(ids.map((id) => ({ id, windows })), { keywords: 10, latencyMs: 20 });
for (const workers of [1, 3]) {
  const queue = { ...FAST_QUEUE, name: `p-${workers}` };
  const schema = `p_${workers}`;
  const fleet = createFleet({ postgres: env.pg.url, accounts: Object.fromEntries(ids.map((id) => [id, { apiKey: 'x', job: { projects: 'all' as const } }])), queue, schema });
  await fleet.enqueue();
  const t0 = Date.now();
  const ws = Array.from({ length: workers }, (_, i) => startWorker(env, `w${i}`, { postgres: env.pg.url, accounts: env.workerAccounts(ids), queue, schema, concurrency: 1, exitWhenIdle: true }));
  await Promise.all(ws.map((w) => w.done));
  console.log('workers', workers, 'wall', Date.now() - t0);
  for (const w of ws) console.log(w.name, w.events.filter((e) => e.type === 'end').map((e) => `${e.account} ${new Date(e.run!.startedAt).getTime() - t0}-${new Date(e.run!.endedAt).getTime() - t0} req ${e.run!.requests}`).join(' | '));
  await fleet.close();
}
await env.close();
