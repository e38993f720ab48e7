/**
 * `seo-visibility listen --accounts` end to end, as the built bin: two accounts, each served by its
 * own simulator over real HTTP; `webhooks ensure --accounts` subscribes each account's projects to
 * that account's URL; the simulators deliver keywords.updated to the listener, which queues a job
 * per account on pg-boss, and the fleet's worker (--work) reads each into PostgreSQL within the
 * account's budget: rows in the store, 2 requests for an account's first event (its project list,
 * then the page) and 1 for the next, never a 429. Then the listener is
 * SIGKILLed between an acknowledgement and the queueing (pg-boss's job table held locked by the
 * test, and the killed process's waiting statement ended, so the enqueue never lands), and the
 * event is queued and read, once, after the restart.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createSimulator } from '../../src/testing/index.js';
import { generateWebhookSecret } from '../../src/webhooks/index.js';
import { startPostgres, type TestPostgres } from '../helpers/postgres-server.js';
import { bundleCli, cleanEnv, runCli } from './support.js';

let cli: string;
let dir: string;
let postgres: TestPostgres;
beforeAll(async () => {
  [cli, postgres] = await Promise.all([bundleCli(), startPostgres()]);
  dir = mkdtempSync(join(tmpdir(), 'sv-listen-fleet-'));
}, 90_000);
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await postgres?.stop();
});

/** Starts `listen` and resolves with its origin once it listens. */
function startListen(args: string[], env: NodeJS.ProcessEnv) {
  const child: ChildProcess = spawn(process.execPath, [cli, 'listen', '--port', '0', ...args], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const origin = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`listen did not start:\n${out}`)), 30_000);
    const look = () => {
      const match =
        /listening on (http:\/\/127\.0\.0\.1:\d+)\/hooks\/seo\/<account>\/<its secret> for 2 account\(s\): acme, globex/.exec(
          out,
        );
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout!.on('data', look);
    void exited.then(() => reject(new Error(`listen exited:\n${out}`)));
  });
  return { child, exited, origin, output: () => out };
}

/** Resolves once `output()` matches `pattern`, within `ms` (bounded: never a hang). */
async function until(output: () => string, pattern: RegExp, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!pattern.test(output())) {
    if (Date.now() > end) throw new Error(`not seen within ${ms} ms: ${pattern}\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

type Sim = ReturnType<typeof createSimulator>;

/**
 * Advances the simulator an hour at a time until it delivers a keywords.updated of its first
 * project; returns every delivery it made meanwhile (other projects' too: the account copies only
 * the first, so those are acknowledged and not read).
 */
async function nextKeywordsDelivery(sim: Sim) {
  const projectId = sim.data.listedProjects[0]!.id;
  const all = [];
  for (let hour = 0; hour < 96; hour++) {
    const delivered = await sim.advance(3_600_000);
    all.push(...delivered);
    if (delivered.some((d) => d.payload.event === 'keywords.updated' && d.payload.project_id === projectId)) return all;
  }
  throw new Error('no keywords.updated in 96 simulated hours');
}

test('two accounts: deliveries become fleet jobs, read into PostgreSQL with 2 requests for the first and 1 for the next, never a 429; SIGKILL between acknowledgement and queueing loses nothing', async () => {
  const acme = createSimulator({ seed: 11, keywordsPerProject: 25 });
  const globex = createSimulator({ seed: 12, keywordsPerProject: 15 });
  const [acmeHttp, globexHttp] = await Promise.all([
    acme.listen({ host: '127.0.0.1', port: 0 }),
    globex.listen({ host: '127.0.0.1', port: 0 }),
  ]);
  const accounts = join(dir, 'accounts.json');
  writeFileSync(
    accounts,
    JSON.stringify({
      accounts: {
        acme: {
          keyEnv: 'ACME_SEO_KEY',
          baseUrl: acmeHttp.url,
          projects: [acme.data.listedProjects[0]!.id],
          datasets: ['rankings.list'],
        },
        globex: {
          keyEnv: 'GLOBEX_SEO_KEY',
          baseUrl: globexHttp.url,
          projects: [globex.data.listedProjects[0]!.id],
          datasets: ['rankings.list'],
        },
      },
    }),
  );
  const secret = generateWebhookSecret();
  // Read+write keys: `webhooks ensure` creates subscriptions; the worker reads with them too.
  const env = cleanEnv({
    ACME_SEO_KEY: acme.keys.readWrite,
    GLOBEX_SEO_KEY: globex.keys.readWrite,
    SEO_VISIBILITY_WEBHOOK_SECRET: secret,
  });
  const db = new pg.Client({ connectionString: postgres.url });
  await db.connect();
  const listeners: Array<ReturnType<typeof startListen>> = [];
  try {
    const first = startListen(['--postgres', postgres.url, '--accounts', accounts, '--work', '2'], env);
    listeners.push(first);
    const origin = await first.origin;

    const ensured = await runCli(
      cli,
      ['webhooks', 'ensure', '--url', `${origin}/hooks/seo`, '--accounts', accounts, '--events', 'keywords.updated'],
      { env },
    );
    expect(ensured.code, ensured.stderr).toBe(0);
    expect(ensured.stdout).toMatch(/create\s+acme\s+\S+\s+http:\/\/127\.0\.0\.1:\d+\/hooks\/seo\/acme\//);
    expect(ensured.stdout).toMatch(/create\s+globex\s+\S+/);
    expect(`${ensured.stdout}${ensured.stderr}`).not.toContain(secret);

    // Each simulator delivers to its account's URL; both are acknowledged.
    const before = { acme: acme.requests.length, globex: globex.requests.length };
    const started = Date.now();
    const [a, g] = await Promise.all([nextKeywordsDelivery(acme), nextKeywordsDelivery(globex)]);
    expect([...a, ...g].length).toBeGreaterThanOrEqual(2);
    expect(new Set([...a, ...g].map((d) => d.status))).toEqual(new Set([202]));
    await until(first.output, /completed\s+acme\s+2 request\(s\), 25 row\(s\)/, 60_000);
    await until(first.output, /completed\s+globex\s+2 request\(s\), 15 row\(s\)/, 60_000);
    const latencyMs = Date.now() - started;
    expect(latencyMs).toBeLessThan(60_000);
    for (const [sim, id, projectId, rows] of [
      [acme, 'acme', acme.data.listedProjects[0]!.id, 25],
      [globex, 'globex', globex.data.listedProjects[0]!.id, 15],
    ] as const) {
      const { rows: found } = await db.query(
        'SELECT count(*)::int AS n FROM seo_visibility_fleet.rankings_list WHERE account_id = $1 AND project_id = $2',
        [id, projectId],
      );
      expect(found[0].n).toBe(rows);
      const spent = sim.requests.slice(before[id]);
      expect(spent.map((r) => r.path.replace(projectId, '{projectId}'))).toEqual([
        '/projects',
        '/projects/{projectId}/rankings/keywords',
      ]);
    }
    expect([...acme.requests, ...globex.requests].filter((r) => r.status === 429)).toEqual([]);

    // Hold pg-boss's job table: the next acknowledged event cannot be queued. Kill the listener then.
    const lock = new pg.Client({ connectionString: postgres.url });
    await lock.connect();
    await lock.query('BEGIN');
    await lock.query('LOCK TABLE pgboss.job IN ACCESS EXCLUSIVE MODE');
    const acmeBefore = acme.requests.length;
    const again = await nextKeywordsDelivery(acme);
    expect(new Set(again.map((d) => d.status))).toEqual(new Set([202]));
    first.child.kill('SIGKILL');
    await first.exited;
    // A statement the killed process had sent would still run once the lock goes (the server sees
    // the dead client only then): end it, as if the process had died before sending it.
    // This test's database only: the server is the system suite's, shared with the files beside it
    // (unscoped, this ended another file's sessions waiting on its own locks, 57P01 in a clean-clone run).
    await lock.query(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND pid <> pg_backend_pid() AND datname = current_database()",
    );
    await lock.query('ROLLBACK');
    await lock.end();
    const { rows: waiting } = await db.query(
      "SELECT count(*)::int AS n FROM pgboss.job WHERE data->>'account' = 'acme' AND data ? 'event' AND state IN ('created', 'retry', 'active')",
    );
    expect(waiting[0].n).toBe(0);

    // The restart queues what the killed process acknowledged, and its worker reads it.
    const second = startListen(['--postgres', postgres.url, '--accounts', accounts, '--work', '2'], env);
    listeners.push(second);
    await second.origin;
    await until(second.output, /recovered [1-9]\d* acknowledged event\(s\) a stopped process had not queued/, 30_000);
    // One request: the store trusts the project list the first event's read took (within a day).
    await until(second.output, /completed\s+acme\s+1 request\(s\)/, 60_000);
    expect(acme.requests.length - acmeBefore).toBe(1);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
    expect(second.output()).toContain('stopped: every acknowledged event was queued');
    // No key and no secret in anything printed, queued or stored.
    const printed = `${first.output()}${second.output()}`;
    const { rows: jobs } = await db.query('SELECT data::text AS data, output::text AS output FROM pgboss.job');
    const { rows: dedupe } = await db.query('SELECT key, body FROM seo_visibility_fleet.webhook_events');
    for (const text of [printed, JSON.stringify(jobs), JSON.stringify(dedupe)]) {
      for (const hidden of [secret, acme.keys.readWrite, globex.keys.readWrite]) expect(text).not.toContain(hidden);
    }
    console.log(
      `events to rows: ${latencyMs} ms for one event per account (2 accounts), 2 requests for each account's first event`,
    );
  } finally {
    for (const l of listeners) if (l.child.exitCode === null && l.child.signalCode === null) l.child.kill('SIGKILL');
    await db.end();
    await Promise.all([acmeHttp.close(), globexHttp.close()]);
  }
}, 240_000);

test('fleet mode refuses what it cannot honour: exit 2 with the reason', async () => {
  const accounts = join(dir, 'one.json');
  writeFileSync(accounts, JSON.stringify({ accounts: { acme: { keyEnv: 'ACME_SEO_KEY' } } }));
  const env = cleanEnv({ SEO_VISIBILITY_WEBHOOK_SECRET: generateWebhookSecret() });
  const cases: Array<[string[], RegExp]> = [
    [['--accounts', accounts], /fleet mode \(--accounts\) needs --postgres/],
    [['--accounts', accounts, '--postgres', postgres.url, '--db', join(dir, 'x.db')], /--db and --accounts/],
    [['--accounts', accounts, '--postgres', postgres.url, '--reserve', '5'], /--reserve and --accounts/],
    [['--db', join(dir, 'x.db'), '--work', '1'], /--work is for fleet mode/],
    [['--accounts', accounts, '--postgres', postgres.url, '--work', '1'], /ACME_SEO_KEY/],
  ];
  for (const [args, message] of cases) {
    const result = await runCli(cli, ['listen', '--port', '0', ...args], { env });
    expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(2);
    expect(result.stderr).toMatch(message);
  }
}, 120_000);

test('a fleet receiver without --work needs no API key, and SIGTERM stops it with exit 0', async () => {
  const accounts = join(dir, 'two.json');
  writeFileSync(
    accounts,
    JSON.stringify({ accounts: { acme: { keyEnv: 'ACME_SEO_KEY' }, globex: { keyEnv: 'GLOBEX_SEO_KEY' } } }),
  );
  // No key variable is set: only the workers (`fleet work`) will need them.
  const listener = startListen(
    ['--postgres', postgres.url, '--accounts', accounts, '--schema', 'keyless_fleet'],
    cleanEnv({ SEO_VISIBILITY_WEBHOOK_SECRET: generateWebhookSecret() }),
  );
  try {
    await listener.origin;
    listener.child.kill('SIGTERM');
    expect(await listener.exited).toBe(0);
    expect(listener.output()).toContain('stopped: every acknowledged event was queued');
  } finally {
    if (listener.child.exitCode === null && listener.child.signalCode === null) listener.child.kill('SIGKILL');
  }
}, 60_000);
