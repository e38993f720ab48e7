/**
 * 11. Events in a fleet (webhooks → pg-boss): two accounts, each served by its own simulator (50 ms
 * per response, 20 in quick mode), deliver each project's daily keywords.updated over real HTTP to
 * the fleet receiver of `listen --accounts` (one URL per account); each delivery becomes a targeted
 * pg-boss job, and a worker (2 accounts at once, pg-boss polling every 2 s, the default) reads it
 * into the PostgreSQL warehouse. Reports the time from the acknowledged deliveries to the rows in the
 * warehouse, and the requests per event, against the nightly sync that would otherwise carry them.
 */
import { createServer } from 'node:http';
import { accountDedupe } from '../src/cli/account-dedupe.js';
import { accountHookPath, accountWebhookSecret } from '../src/cli/account-secrets.js';
import { fleetReceivers } from '../src/cli/fleet-receivers.js';
import { createFleet } from '../src/fleet/index.js';
import { SeoVisibilityClient } from '../src/index.js';
import { createSimulator } from '../src/testing/index.js';
import { ensureWebhooks, generateWebhookSecret, memoryDedupeStore } from '../src/webhooks/index.js';
import { startPostgres } from '../test/helpers/postgres-server.js';
import { median, ms, QUICK, type Row } from './lib.js';

const LATENCY_MS = QUICK ? 20 : 50;

export async function webhooksFleetBench(): Promise<Row[]> {
  const section = '11. Events in a fleet (webhooks → pg-boss)';
  const ids = ['acme', 'globex'];
  const sims = ids.map((_, i) =>
    createSimulator({ seed: 21 + i, keywordsPerProject: QUICK ? 100 : 500, latencyMs: LATENCY_MS }),
  );
  const [pg, ...https] = await Promise.all([
    startPostgres(),
    ...sims.map((s) => s.listen({ host: '127.0.0.1', port: 0 })),
  ]);
  const accounts = Object.fromEntries(
    ids.map((id, i) => [
      id,
      {
        apiKey: sims[i]!.keys.readWrite,
        job: { projects: 'all' as const, datasets: ['rankings.list' as const] },
        client: { baseUrl: https[i]!.url },
      },
    ]),
  );
  const fleet = createFleet({ postgres: pg.url, accounts, schema: 'bench_events', queue: { name: 'bench-events' } });
  const mainSecret = generateWebhookSecret();
  let queued = 0;
  const { node } = await fleetReceivers({
    queue: {
      enqueueEvent: async (account, event) => fleet.enqueueEvent(account, event).then((r) => (r.queued && queued++, r)),
    },
    accountIds: ids,
    mainSecret,
    path: '/hooks/seo',
    dedupe: accountDedupe(memoryDedupeStore(), ids),
    say: () => undefined,
    onError: (account, error) => console.error(`bench: ${account}: ${String(error)}`),
  });
  const server = createServer(node);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const runs: Array<{ requests: number; rows: number; status: string }> = [];
  const stop = new AbortController();
  const working = fleet.work({
    concurrency: 2,
    signal: stop.signal,
    onEvent: (e) =>
      void (
        e.type === 'end' &&
        e.run &&
        runs.push({ requests: e.run.requests, rows: e.run.rows, status: e.run.status })
      ),
  });
  try {
    const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    for (const [i, id] of ids.entries()) {
      const client = new SeoVisibilityClient({ apiKey: sims[i]!.keys.readWrite, baseUrl: https[i]!.url });
      await ensureWebhooks(client, {
        url: accountHookPath(`${origin}/hooks/seo`, id),
        secret: await accountWebhookSecret(mainSecret, id),
        events: ['keywords.updated'],
      });
    }
    const projects = sims.reduce((n, s) => n + s.data.listedProjects.length, 0);
    const before = sims.map((s) => s.requests.length);
    const latencies: number[] = [];
    let events = 0;
    for (let hour = 0; hour < 48 && events < projects; hour++) {
      const delivered = (await Promise.all(sims.map((s) => s.advance(3_600_000))))
        .flat()
        .filter((d) => d.payload.event === 'keywords.updated' && d.status === 202);
      if (delivered.length === 0) continue;
      // From the acknowledged deliveries to every queued read done: the rows are in the warehouse.
      const started = performance.now();
      await new Promise((resolve) => setTimeout(resolve, 50)); // the handlers start after the answer
      const done = () => runs.filter((r) => r.status === 'completed').length;
      for (const until = Date.now() + 120_000; done() < queued && Date.now() < until; )
        await new Promise((resolve) => setTimeout(resolve, 20));
      const elapsed = performance.now() - started;
      for (const _ of delivered) latencies.push(elapsed);
      events += delivered.length;
    }
    const requests = sims.reduce((n, s, i) => n + s.requests.length - before[i]!, 0);
    const rateLimited = sims.reduce((n, s) => n + s.requests.filter((r) => r.status === 429).length, 0);
    const rows = runs.reduce((n, r) => n + r.rows, 0);
    const completed = runs.filter((r) => r.status === 'completed').length;
    const deferred = runs.filter((r) => r.status === 'stopped').length;
    const failed = runs.filter((r) => r.status === 'failed').length;
    const perEvent = requests / Math.max(events, 1);
    // An event's read is its project's rankings pages plus the project list runSync checks it against.
    const keywordPages = Math.ceil((QUICK ? 100 : 500) / 100);
    const bound = keywordPages + 1;
    return [
      {
        section,
        figure: `keywords.updated → fresh rows in the PostgreSQL warehouse through pg-boss (${events} events, 2 accounts, ${LATENCY_MS} ms per response, polling 2 s), median`,
        value: ms(median(latencies), 0),
        peer: 'nightly sync: the next run, up to 24 h later',
        target: "the event's job, read by the next free worker",
        pass: events === projects && completed === queued && failed === 0,
        binding: true,
        holds: events === projects && completed === queued && failed === 0,
      },
      {
        section,
        figure: 'requests per keywords.updated in a fleet',
        value: `${perEvent.toFixed(1)} (${requests} for ${events} events, ${queued} jobs: ${completed} read, ${deferred} put off for a store in use, ${failed} failed; ${rows} rows, ${rateLimited} × 429)`,
        peer: 'one process (section 10): the same read',
        target: `≤ ${bound.toFixed(1)} (the project's rankings pages + the project check), no 429`,
        pass: perEvent <= bound && rateLimited === 0,
        binding: true,
        holds: perEvent <= bound && rateLimited === 0,
      },
    ];
  } finally {
    stop.abort();
    await working.catch(() => undefined);
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await fleet.close();
    await Promise.all(https.map((h) => h!.close()));
    await pg.stop();
  }
}
