import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleCli, cleanEnv, runCli } from './support.js';

// The command line's own contract: every flag is checked before the first request, and a refusal
// names the flag the user typed (not the API option behind it).
let cli: string;
let dir: string;
let server: Server;
let requests = 0;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  cli = await bundleCli();
  dir = mkdtempSync(join(tmpdir(), 'sv-cli-flags-'));
  // A stand-in for the API that counts what reaches it: a refused flag must cost nothing.
  server = createServer((_req, res) => {
    requests++;
    res
      .writeHead(500, { 'content-type': 'application/json' })
      .end('{"success":false,"error":{"code":"INTERNAL_ERROR","message":"counted"}}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  env = cleanEnv({
    SEO_VISIBILITY_API_KEY: 'sv_live_cli_flags_key',
    SEO_VISIBILITY_BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`,
  });
}, 60_000);
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
  rmSync(dirname(cli), { recursive: true, force: true });
});

describe('seo-visibility --version', () => {
  it('prints the package version', async () => {
    const { version } = JSON.parse(readFileSync(join(import.meta.dirname, '../../package.json'), 'utf8')) as {
      version: string;
    };
    const run = await runCli(cli, ['--version']);
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toBe(version);
  });
});

describe('--help and exit codes', () => {
  it('plan --help does not list 75, which only sync returns; sync --help does', async () => {
    const plan = await runCli(cli, ['plan', '--help']);
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain('Exit codes:');
    expect(plan.stdout).not.toMatch(/^\s*75\b/m);
    const sync = await runCli(cli, ['sync', '--help']);
    expect(sync.stdout).toMatch(/^\s*75\s+stopped/m);
  });

  it('the top-level --help names every command that returns 75: sync and fleet work', async () => {
    const top = await runCli(cli, ['--help']);
    expect(top.stdout).toMatch(/^\s*75\s+sync and fleet work only: stopped/m);
  });
});

describe('every flag is checked before the first request, naming the flag', () => {
  const db = () => join(dir, 'never.db');
  it.each([
    ['--concurrency 0', () => ['sync', '--db', db(), '--concurrency', '0'], '--concurrency'],
    ['--concurrency 1.5', () => ['sync', '--db', db(), '--concurrency', '1.5'], '--concurrency'],
    ["--project ''", () => ['plan', '--project', ''], '--project'],
    ['--project nope', () => ['plan', '--project', 'nope'], '--project'],
    ["--max-requests ''", () => ['sync', '--db', db(), '--max-requests', ''], '--max-requests'],
    ['--max-requests 0', () => ['sync', '--db', db(), '--max-requests', '0'], '--max-requests'],
    ["--reserve ''", () => ['plan', '--reserve', ''], '--reserve'],
    ['--reserve above the budget', () => ['plan', '--reserve', '99999999999'], '--reserve'],
    ["--reserve at the day's budget", () => ['sync', '--db', db(), '--reserve', '50000'], '--reserve'],
    ['--progress fancy', () => ['sync', '--db', db(), '--progress', 'fancy'], '--progress'],
    ["--datasets ''", () => ['plan', '--datasets', ''], '--datasets'],
    ["--db ''", () => ['sync', '--db', ''], '--db'],
    ["--ndjson ''", () => ['sync', '--ndjson', ''], '--ndjson'],
  ])('%s', async (_name, args, flag) => {
    const before = requests;
    const run = await runCli(cli, args(), { env });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(flag);
    expect(run.stderr).not.toMatch(/Invalid (projects|concurrency|budget|reserve|maxRequests)\b/);
    expect(run.stdout).not.toContain('Plan:');
    expect(requests - before).toBe(0);
  });

  it.each([
    ['SEO_VISIBILITY_BASE_URL', { SEO_VISIBILITY_BASE_URL: 'https://api.example.test' }],
    ['SEO_VISIBILITY_API_KEY', { SEO_VISIBILITY_API_KEY: 'has a space' }],
  ])('a bad %s is bad usage naming the variable, not the client option', async (variable, bad) => {
    const before = requests;
    const run = await runCli(cli, ['plan'], { env: { ...env, ...bad } });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(variable);
    expect(run.stderr).not.toMatch(/Invalid (baseUrl|apiKey)\b/);
    expect(run.stderr).not.toContain('has a space');
    expect(requests - before).toBe(0);
  });

  it('a reserve below the budget is accepted (the plan then runs)', async () => {
    const before = requests;
    const run = await runCli(cli, ['plan', '--reserve', '49999'], { env });
    // The stand-in answers 500 to everything: the plan fails, but only after the flags passed.
    expect(run.code).toBe(1);
    expect(requests - before).toBeGreaterThan(0);
  });
});
