import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleCli, cleanEnv, runCli } from './support.js';

// The process around the commands: its output streams and how it ends.
let cli: string;
let dir: string;
const SMALL = ['--simulator', '--simulator-keywords', '30'];

beforeAll(async () => {
  cli = await bundleCli();
  dir = mkdtempSync(join(tmpdir(), 'sv-cli-index-'));
}, 60_000);
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(dirname(cli), { recursive: true, force: true });
});

/**
 * Runs `node cli …args | head -1` in a real shell pipe (`both`: stderr into the pipe too); the
 * CLI's own exit status is reported on the shell's stderr.
 */
function throughHead(args: string[], both = false): Promise<{ first: string; stderr: string; code: number }> {
  const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const command = `${[process.execPath, cli, ...args].map(quote).join(' ')}${both ? ' 2>&1' : ''} | head -1; echo "cli-exit=\${PIPESTATUS[0]}" >&2`;
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/bash', ['-c', command], { env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the pipe did not finish within 60 s:\n${stderr}`));
    }, 60_000);
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('exit', () => {
      clearTimeout(timer);
      const code = Number(/cli-exit=(\d+)/.exec(stderr)?.[1] ?? -1);
      resolve({ first: stdout, stderr: stderr.replace(/cli-exit=\d+\n?/, ''), code });
    });
  });
}

describe('seo-visibility on a closed pipe', () => {
  it('sync | head -1: stops quietly when the reader is gone (no EPIPE, no stack), progress saved', async () => {
    const db = join(dir, 'head.db');
    const run = await throughHead(['sync', ...SMALL, '--db', db, '--progress', 'lines', '--concurrency', '1']);
    expect(run.first).toMatch(/^Syncing all projects from the built-in simulator/);
    expect(run.stderr).toBe('');
    // Stopped like Ctrl-C (75), or done if it finished before it wrote again: never a crash (1).
    expect([0, 75]).toContain(run.code);
    // What it committed is kept: the same command, on a pipe that stays open, ends the job.
    const rest = await runCli(cli, ['sync', ...SMALL, '--db', db]);
    expect(rest.code).toBe(0);
    expect(rest.stdout).toMatch(/run 1\)/);
  }, 120_000);

  it('sync 2>&1 | head -1: the same when stderr shares the closed pipe', async () => {
    const run = await throughHead(
      ['sync', ...SMALL, '--db', join(dir, 'both.db'), '--progress', 'lines', '--concurrency', '1'],
      true,
    );
    expect(run.first).toMatch(/^Syncing all projects/);
    expect(run.stderr).toBe('');
    expect([0, 75]).toContain(run.code);
  }, 120_000);

  it('plan --help | head -1: exits 0 with nothing on stderr', async () => {
    const run = await throughHead(['plan', '--help']);
    expect(run.first).toMatch(/^Usage: seo-visibility plan/);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
  }, 60_000);
});

describe('SEO_VISIBILITY_LOG=debug', () => {
  it('log lines go to stderr, so plan --json stays valid JSON on stdout', async () => {
    const run = await runCli(cli, ['plan', ...SMALL, '--json'], { env: cleanEnv({ SEO_VISIBILITY_LOG: 'debug' }) });
    expect(run.code).toBe(0);
    expect(() => JSON.parse(run.stdout)).not.toThrow();
    expect(run.stderr).toMatch(/seo-visibility: → GET /);
    expect(run.stdout).not.toContain('seo-visibility:');
  }, 60_000);

  it('an unknown level is bad usage, naming the variable', async () => {
    const run = await runCli(cli, ['plan', ...SMALL], { env: cleanEnv({ SEO_VISIBILITY_LOG: 'verbose' }) });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('SEO_VISIBILITY_LOG');
  }, 60_000);
});
