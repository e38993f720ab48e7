/**
 * `seo-visibility listen`, run as the built bin: the simulator delivers a keywords.updated to it over
 * real HTTP, and a SIGTERM sent right after the delivery was acknowledged still leaves the event's
 * rows in the SQLite copy (what was acknowledged is read before the process ends).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { SeoVisibilityClient } from '../../src/index.js';
import { createSimulator } from '../../src/testing/index.js';
import { generateWebhookSecret, webhookUrl } from '../../src/webhooks/index.js';
import pg from 'pg';
import { startPostgres, type TestPostgres } from '../helpers/postgres-server.js';
import { bundleCli, cleanEnv, runCli } from './support.js';

let cli: string;
let dir: string;
beforeAll(async () => {
  cli = await bundleCli();
  dir = mkdtempSync(join(tmpdir(), 'sv-listen-'));
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('without a secret or a store: exit 2', async () => {
  expect(
    (
      await runCli(cli, ['listen', '--port', '0', '--db', join(dir, 'x.db')], {
        env: cleanEnv({ SEO_VISIBILITY_API_KEY: 'k_live_x', SEO_VISIBILITY_BASE_URL: 'http://127.0.0.1:9/api/v1' }),
      })
    ).code,
  ).toBe(2);
  expect(
    (
      await runCli(cli, ['listen', '--port', '0'], {
        env: cleanEnv({
          SEO_VISIBILITY_WEBHOOK_SECRET: generateWebhookSecret(),
          SEO_VISIBILITY_API_KEY: 'k_live_x',
          SEO_VISIBILITY_BASE_URL: 'http://127.0.0.1:9/api/v1',
        }),
      })
    ).code,
  ).toBe(2);
});

test('an acknowledged keywords.updated is read into the copy before SIGTERM ends the process', async () => {
  const sim = createSimulator({ seed: 7, keywordsPerProject: 30, rateLimit: false });
  const server = await sim.listen({ host: '127.0.0.1', port: 0 });
  try {
    const secret = generateWebhookSecret();
    const db = join(dir, 'copy.db');
    const listen = startListen(
      ['--db', db],
      cleanEnv({
        SEO_VISIBILITY_API_KEY: sim.keys.readOnly,
        SEO_VISIBILITY_BASE_URL: server.url,
        SEO_VISIBILITY_WEBHOOK_SECRET: secret,
      }),
      // The address printed with a placeholder where the secret goes, never the secret.
      /listening on (http:\/\/127\.0\.0\.1:\d+)\/hooks\/seo\/<SEO_VISIBILITY_WEBHOOK_SECRET>/,
    );
    const origin = await listen.origin;
    const { projectId, delivered } = await deliverKeywordsUpdated(sim, origin, secret);
    expect(delivered.map((d) => d.status)).toEqual([202]);
    // Acknowledged; the read has not had time to run (it waits settleMs): stop now.
    listen.child.kill('SIGTERM');
    expect(await listen.exited).toBe(0);
    expect(listen.output()).toMatch(/completed\s+\S+\s+rankings\.list\s+1 event\(s\), 2 request\(s\)/);
    expect(listen.output()).toContain('stopped: every acknowledged event was handled');
    expect(listen.output()).not.toContain(secret);
    const copy = new DatabaseSync(db);
    // Dated by the process's own clock (the simulator's ran ahead of it by the hours advanced).
    const rows = copy.prepare('SELECT count(*) AS n FROM rankings_list WHERE project_id = ?').get(projectId) as {
      n: number;
    };
    copy.close();
    expect(rows.n).toBe(30);
  } finally {
    await server.close();
  }
}, 60_000);

/**
 * Starts `listen` and resolves `origin` once it prints `listening` (its first group: the origin).
 */
function startListen(args: string[], env: NodeJS.ProcessEnv, listening = /listening on (http:\/\/127\.0\.0\.1:\d+)\//) {
  const child = spawn(process.execPath, [cli, 'listen', '--port', '0', ...args], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const origin = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`listen did not start:\n${out}`)), 20_000);
    child.stdout.on('data', () => {
      const match = listening.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
  });
  return { child, exited, origin, output: () => out };
}

test('SIGKILLed between the acknowledgement and the read: the read happens after the restart (--postgres)', async () => {
  const postgres: TestPostgres = await startPostgres();
  const sim = createSimulator({ seed: 7, keywordsPerProject: 30, rateLimit: false });
  const server = await sim.listen({ host: '127.0.0.1', port: 0 });
  try {
    const secret = generateWebhookSecret();
    const env = cleanEnv({
      SEO_VISIBILITY_API_KEY: sim.keys.readOnly,
      SEO_VISIBILITY_BASE_URL: server.url,
      SEO_VISIBILITY_WEBHOOK_SECRET: secret,
    });
    const first = startListen(['--postgres', postgres.url], env);
    const origin = await first.origin;
    const { projectId, delivered } = await deliverKeywordsUpdated(sim, origin, secret);
    expect(delivered.map((d) => d.status)).toEqual([202]);
    // Acknowledged; the read waits a second for more events: kill it now.
    first.child.kill('SIGKILL');
    await first.exited;
    expect(first.output()).not.toMatch(/completed/);
    const requestsBefore = sim.requests.length;

    // The restart listens on another port: nothing is delivered to it, it recovers.
    const second = startListen(['--postgres', postgres.url], env);
    await second.origin;
    const until = Date.now() + 30_000;
    while (!/completed\s+\S+\s+rankings\.list/.test(second.output())) {
      if (Date.now() > until) throw new Error(`no read after the restart:\n${second.output()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(second.output()).toContain('recovered 1 acknowledged event(s)');
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
    expect(sim.requests.length - requestsBefore).toBe(2);
    const db = new pg.Client({ connectionString: postgres.url });
    await db.connect();
    try {
      const { rows } = await db.query(
        'SELECT count(*)::int AS n FROM seo_visibility.rankings_list WHERE project_id = $1',
        [projectId],
      );
      expect(rows[0].n).toBe(30);
    } finally {
      await db.end();
    }
  } finally {
    await server.close();
    await postgres.stop();
  }
}, 90_000);

/**
 * Subscribes `origin`'s receiver to keywords.updated for the simulator's first project, then
 * advances the simulator an hour at a time (at most 48) until it has delivered one.
 */
async function deliverKeywordsUpdated(sim: ReturnType<typeof createSimulator>, origin: string, secret: string) {
  const client = new SeoVisibilityClient({
    apiKey: sim.keys.readWrite,
    baseUrl: sim.baseUrl,
    fetch: sim.fetch,
    rateLimit: { windows: false },
  });
  const projectId = sim.data.listedProjects[0]!.id;
  await client.webhooks.create({
    url: webhookUrl(`${origin}/hooks/seo`, secret),
    project_id: projectId,
    events: ['keywords.updated'],
  });
  let delivered: Awaited<ReturnType<typeof sim.advance>> = [];
  for (let hour = 0; hour < 48 && delivered.length === 0; hour++)
    delivered = (await sim.advance(3_600_000)).filter((d) => d.payload.event === 'keywords.updated');
  return { projectId, delivered };
}
