import { rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FleetEnv, startFleetEnv } from '../fleet/support/fleet-env.js';
import { bundleCli, cleanEnv, runCli } from './support.js';

const WINDOWS = [
  { limit: 20, intervalMs: 1_000 },
  { limit: 1_000, intervalMs: 60_000 },
];
let cli: string;
let env: FleetEnv;
let file: string;
let keys: Record<string, string>;

beforeAll(async () => {
  [cli, env] = await Promise.all([
    bundleCli(),
    startFleetEnv([
      { id: 'acme', windows: WINDOWS },
      { id: 'globex', windows: WINDOWS },
    ]),
  ]);
  file = join(env.dir, 'accounts.json');
  writeFileSync(
    file,
    JSON.stringify({
      baseUrl: env.server.url,
      accounts: {
        acme: { keyEnv: 'ACME_SEO_KEY', windows: WINDOWS },
        globex: { keyEnv: 'GLOBEX_SEO_KEY', windows: WINDOWS, datasets: ['projects.list', 'rankings.list'] },
      },
    }),
  );
  keys = { ACME_SEO_KEY: env.accounts[0]!.sim.keys.readOnly, GLOBEX_SEO_KEY: env.accounts[1]!.sim.keys.readOnly };
}, 60_000);
afterAll(async () => {
  await env?.close();
  if (cli) rmSync(dirname(cli), { recursive: true, force: true });
});

const fleet = (
  command: string,
  extra: string[] = [],
  vars: Record<string, string> = keys,
  options: { interruptOn?: RegExp } = {},
) =>
  runCli(
    cli,
    [
      'fleet',
      command,
      '--postgres',
      env.pg.url,
      '--accounts',
      file,
      '--queue',
      'cli-test',
      '--schema',
      'cli_test',
      ...extra,
    ],
    { env: cleanEnv(vars), timeoutMs: 90_000, ...options },
  );

describe('seo-visibility fleet', () => {
  it('enqueue, plan, work --exit-when-idle and status: every account synced, a table per account', async () => {
    const queued = await fleet('enqueue', [], {});
    expect(queued.stdout).toBe('Queued 2 account(s): acme, globex.\n');
    expect(queued.code).toBe(0);
    expect((await fleet('enqueue', ['--account', 'acme'], {})).stdout).toBe(
      'Queued 0 account(s). Already queued: acme.\n',
    );

    const plan = await fleet('plan');
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toMatch(/^account +requests +least time +fits today$/m);
    expect(plan.stdout).toMatch(/^acme +\d+ +\d+s +yes$/m);
    expect(plan.stdout).toMatch(/^globex +\d+ +\d+s +yes$/m);

    const work = await fleet('work', ['--exit-when-idle', '--concurrency', '2']);
    expect(work.code, work.stderr).toBe(0);
    expect(work.stdout).toMatch(/acme: completed, \d+ requests, \d+ rows/);
    expect(work.stdout).toMatch(/globex: completed, \d+ requests, \d+ rows/);
    expect(work.stdout).toMatch(/2 run\(s\): 2 completed, 0 stopped, 0 failed\.$/m);

    const status = await fleet('status', [], {});
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(/^account +state +last run \(UTC\) +requests +rows$/m);
    expect(status.stdout).toMatch(/^acme +completed +\d{4}-\d\d-\d\d \d\d:\d\d:\d\d +[\d,]+ +[\d,]+$/m);
    expect(status.stdout).toMatch(/^globex +completed /m);
    const json = JSON.parse((await fleet('status', ['--json'], {})).stdout) as Array<{
      account: string;
      state: string;
    }>;
    expect(json.map((s) => [s.account, s.state])).toEqual([
      ['acme', 'completed'],
      ['globex', 'completed'],
    ]);
    for (const run of [queued, plan, work, status])
      for (const key of Object.values(keys)) expect(run.stdout + run.stderr).not.toContain(key);
  }, 150_000);

  it('work stopped by Ctrl-C exits 75, with the account queued again', async () => {
    await fleet('enqueue', ['--account', 'acme'], {});
    const run = await fleet('work', [], keys, { interruptOn: /acme: started/ });
    expect(run.code).toBe(75);
    expect(run.stdout).toMatch(/acme: stopped \(aborted\)/);
    const status = JSON.parse((await fleet('status', ['--json'], {})).stdout) as Array<{
      account: string;
      state: string;
    }>;
    expect(status.find((s) => s.account === 'acme')?.state).toBe('queued');
  }, 90_000);

  it('work exits 1 when an account ends failed (its key refused), naming it; the others complete', async () => {
    const revoked = join(env.dir, 'revoked.json');
    writeFileSync(
      revoked,
      JSON.stringify({
        baseUrl: env.server.url,
        accounts: {
          acme: { keyEnv: 'ACME_SEO_KEY', windows: WINDOWS, datasets: ['projects.list'] },
          revoked: { keyEnv: 'REVOKED_SEO_KEY', windows: WINDOWS },
        },
      }),
    );
    const vars = { ...keys, REVOKED_SEO_KEY: 'sv_live_revoked_key_0000000' };
    const run = (command: string, extra: string[] = []) =>
      runCli(
        cli,
        [
          'fleet',
          command,
          '--postgres',
          env.pg.url,
          '--accounts',
          revoked,
          '--queue',
          'cli-revoked',
          '--schema',
          'cli_revoked',
          ...extra,
        ],
        { env: cleanEnv(vars), timeoutMs: 90_000 },
      );
    expect((await run('enqueue')).code).toBe(0);
    const work = await run('work', ['--exit-when-idle']);
    expect(work.code, work.stderr).toBe(1);
    expect(work.stdout).toMatch(/acme: completed/);
    expect(work.stdout).toMatch(/^\[\d\d:\d\d:\d\d\] Failed: revoked \(.*\)\.$/m);
    expect(work.stdout + work.stderr).not.toContain('sv_live_revoked_key_0000000');
  }, 90_000);

  it('refuses to work while a key variable is unset, naming it and no value (exit 2)', async () => {
    const run = await fleet('work', [], { ACME_SEO_KEY: keys['ACME_SEO_KEY']! });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      "seo-visibility: These key variables are not set: globex: GLOBEX_SEO_KEY. Every worker needs every account's key (or try it with --simulator).\n",
    );
    expect(run.stderr).not.toContain(keys['ACME_SEO_KEY']!);
  });

  it('bad usage exits 2 with a message: no Postgres, a missing or malformed accounts file', async () => {
    const noPostgres = await runCli(cli, ['fleet', 'status', '--accounts', file], { env: cleanEnv() });
    expect([noPostgres.code, noPostgres.stderr]).toEqual([
      2,
      'seo-visibility: No Postgres: pass --postgres <url> or set SEO_VISIBILITY_POSTGRES_URL.\n',
    ]);
    const missing = await runCli(
      cli,
      ['fleet', 'status', '--postgres', env.pg.url, '--accounts', join(env.dir, 'nope.json')],
      { env: cleanEnv() },
    );
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('nope.json: no such file');
    const bad = join(env.dir, 'bad.json');
    writeFileSync(
      bad,
      JSON.stringify({ accounts: { acme: { keyEnv: 'ACME_SEO_KEY', apiKey: 'sv_live_pasted_here' } } }),
    );
    const pasted = await runCli(cli, ['fleet', 'status', '--postgres', env.pg.url, '--accounts', bad], {
      env: cleanEnv(),
    });
    expect(pasted.code).toBe(2);
    expect(pasted.stderr).toContain('account "acme": unknown key "apiKey"');
    expect(pasted.stderr).not.toContain('sv_live_pasted_here');
  });

  it('a Postgres that cannot be reached: exit 1, the password never printed', async () => {
    const run = await runCli(
      cli,
      ['fleet', 'status', '--postgres', 'postgres://sync:s3cret-Pa55@127.0.0.1:1/warehouse', '--accounts', file],
      { env: cleanEnv(), timeoutMs: 60_000 },
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^seo-visibility: /);
    expect(run.stderr).not.toContain('s3cret-Pa55');
  }, 60_000);
});
