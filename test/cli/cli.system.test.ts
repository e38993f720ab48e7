import { dirname, join } from 'node:path';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dumpTables } from '../sync/support/account.js';
import { bundleCli, cleanEnv, runCli, runCliOnTerminal } from './support.js';

let cli: string;
let dir: string;
const SMALL = ['--simulator', '--simulator-keywords', '30'];

beforeAll(async () => {
  cli = await bundleCli();
  dir = mkdtempSync(join(tmpdir(), 'sv-cli-'));
}, 60_000);
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(dirname(cli), { recursive: true, force: true });
});

describe('seo-visibility --help', () => {
  it.each([[[]], [['plan']], [['sync']]])('%j --help shows examples and the exit codes', async (command) => {
    const run = await runCli(cli, [...command, '--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/Examples:\n {2}\$ /);
    expect(run.stdout).toContain('Exit codes:');
    expect(run.stdout).toContain('SEO_VISIBILITY_API_KEY');
  });
});

describe('seo-visibility sync', () => {
  it('on a pipe: plain progress lines, exit 0, then a second run re-reads only what can have changed', async () => {
    const db = join(dir, 'pipe.db');
    const run = await runCli(cli, ['sync', ...SMALL, '--db', db]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Syncing all projects from the built-in simulator/);
    expect(run.stdout).toMatch(/^Plan: \d+ requests, .*; fits in today's budget; rankings\.history: backfill$/m);
    expect(run.stdout).toMatch(/^\[\d\d:\d\d:\d\d\] rankings\.history done: [\d,]+ requests, [\d,]+ rows$/m);
    expect(run.stdout).toMatch(/^Done: every dataset is up to date\.$/m);
    // No terminal control sequences in a log.
    expect(run.stdout).not.toMatch(/\u001b\[/);
    expect(run.stderr).not.toMatch(/ExperimentalWarning/);
    expect(dumpTables(db)['rankings_history']?.length).toBeGreaterThan(1000);
    const again = await runCli(cli, ['sync', ...SMALL, '--db', db]);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/^9 requests, [\d,]+ rows written/m);
  }, 90_000);

  it('on a terminal: one progress bar per dataset with the ETA under the budget', async () => {
    const run = await runCliOnTerminal(cli, ['sync', ...SMALL, '--db', join(dir, 'tty.db')]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/\u001b\[/);
    for (const dataset of ['rankings.history', 'prompts.history', 'backlinks.anchors'])
      expect(run.stdout).toMatch(new RegExp(`${dataset.replace('.', '\\.')} +[█░]+ \\d+/\\d+ req +[\\d,]+ rows +ETA `));
    expect(run.stdout).toMatch(/ETA \d+s/);
    expect(run.stdout).toContain('Done: every dataset is up to date.');
  }, 90_000);

  it('--max-requests: stops with exit code 75, and the same command resumes to the end', async () => {
    const db = join(dir, 'max.db');
    const first = await runCli(cli, ['sync', ...SMALL, '--db', db, '--max-requests', '50']);
    expect(first.code).toBe(75);
    expect(first.stdout).toMatch(/^50 requests, /m);
    expect(first.stdout).toContain(
      'Stopped: --max-requests reached. Progress is saved; run the same command again to resume.',
    );
    const rest = await runCli(cli, ['sync', ...SMALL, '--db', db]);
    expect(rest.code).toBe(0);
    expect(rest.stdout).toMatch(/run 1\)/);
  }, 90_000);

  it('Ctrl-C: stops cleanly with progress saved (exit 75); the next sync resumes the same run', async () => {
    const db = join(dir, 'sigint.db');
    const args = ['sync', '--simulator', '--simulator-keywords', '150', '--db', db, '--concurrency', '1'];
    const first = await runCli(cli, args, { interruptOn: /progress: \d+\//, env: cleanEnv() });
    expect(first.code).toBe(75);
    expect(first.stderr).toContain('Stopping: finishing the requests in flight and saving progress');
    expect(first.stdout).toContain('Stopped: interrupted. Progress is saved');
    const rest = await runCli(cli, args);
    expect(rest.code).toBe(0);
    expect(rest.stdout).toMatch(/run 1\)/);
  }, 90_000);

  it('exit code 2 for bad usage: no API key, an unknown dataset, neither --db nor --ndjson', async () => {
    const noKey = await runCli(cli, ['sync', '--db', join(dir, 'x.db')]);
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toContain('No API key: set SEO_VISIBILITY_API_KEY');
    const bad = await runCli(cli, ['sync', '--simulator', '--db', join(dir, 'x.db'), '--datasets', 'rankings.lisst']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('unknown dataset rankings.lisst');
    const noStore = await runCli(cli, ['sync', '--simulator']);
    expect(noStore.code).toBe(2);
    expect(noStore.stderr).toContain(
      'sync needs one of --db <file>, --ndjson <dir> or --postgres <url> (or SEO_VISIBILITY_POSTGRES_URL)',
    );
  }, 60_000);

  it('exit code 1 when the sync fails: a store that cannot be opened', async () => {
    const run = await runCli(cli, ['sync', ...SMALL, '--db', join(dir, 'missing', 'folder', 'x.db')]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('Cannot open the SQLite store at');
  }, 60_000);
});

describe('seo-visibility plan', () => {
  it('prints the plan in words, and as JSON with --json', async () => {
    const words = await runCli(cli, ['plan', ...SMALL]);
    expect(words.code).toBe(0);
    expect(words.stdout).toMatch(/^\d[\d,]* requests for 4 projects/m);
    expect(words.stdout).toMatch(/rankings\.history: back-fill of [\d,]+ keywords, one request each/);
    const json = await runCli(cli, ['plan', ...SMALL, '--json']);
    expect(json.code).toBe(0);
    const plan = JSON.parse(json.stdout) as { requests: number; fitsToday: boolean; historyPath: string };
    expect(plan).toMatchObject({ fitsToday: true, historyPath: 'backfill' });
    expect(plan.requests).toBeGreaterThan(100);
  }, 60_000);
});
