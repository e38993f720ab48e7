import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CommanderError } from 'commander';
import { afterAll, describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/program.js';

// The fleet commands' refusals, in process: each comes before any connection, so no PostgreSQL is
// started (the URL points at a closed port, and a test that reached it would fail, not hang).
const dir = mkdtempSync(join(tmpdir(), 'sv-fleet-usage-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const NO_POSTGRES = 'postgres://sync@127.0.0.1:1/warehouse';
const KEY = 'sv_live_0123456789abcdefABCDEF';

/** Runs `seo-visibility fleet …` in this process with `env` as its environment; resolves with what it printed. */
async function fleet(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  let code = 0;
  const sink = (write: (s: string) => void) =>
    ({ write: (s: string) => (write(s), true), columns: 80, isTTY: false }) as unknown as NodeJS.WriteStream;
  const saved = { ...process.env };
  for (const [k, v] of Object.entries(env)) process.env[k] = v;
  try {
    await buildProgram({
      out: sink((s) => (out += s)),
      err: sink((s) => (err += s)),
      setExit: (c) => (code = c),
      signal: new AbortController().signal,
    }).parseAsync(['node', 'seo-visibility', 'fleet', ...args]);
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    code = error.exitCode === 0 ? 0 : 2;
  } finally {
    for (const k of Object.keys(env)) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
  }
  return { code, out, err };
}

function accountsFile(text: string): string {
  const path = join(dir, `accounts-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(path, text);
  return path;
}

describe('fleet work and fleet plan: a key written where its variable name belongs', () => {
  for (const command of ['work', 'plan']) {
    it(`${command} refuses it (exit 2), naming the account, never printing the key`, async () => {
      const file = accountsFile(JSON.stringify({ accounts: { oops: { keyEnv: KEY } } }));
      const run = await fleet([command, '--postgres', NO_POSTGRES, '--accounts', file]);
      expect(run.code).toBe(2);
      expect(run.err).toContain('account "oops": "keyEnv" is not a valid variable name');
      expect(run.out + run.err).not.toContain(KEY);
    });
  }
});

describe('fleet work: a key variable holding a trailing CR/LF', () => {
  it('refuses to start (exit 2), naming the account and the variable, never the key', async () => {
    const file = accountsFile(JSON.stringify({ accounts: { acme: { keyEnv: 'ACME_SEO_KEY' } } }));
    const run = await fleet(['work', '--postgres', NO_POSTGRES, '--accounts', file], { ACME_SEO_KEY: `${KEY}\r\n` });
    expect(run.code).toBe(2);
    expect(run.err).toContain('acme: ACME_SEO_KEY holds whitespace, control or non-ASCII characters');
    expect(run.out + run.err).not.toContain(KEY);
  });
});

describe('fleet status: a duplicated account id', () => {
  it('is refused (exit 2), naming the id and both places', async () => {
    const file = accountsFile(
      '{\n  "accounts": {\n    "acme": { "keyEnv": "A_KEY" },\n    "acme": { "keyEnv": "B_KEY" }\n  }\n}\n',
    );
    const run = await fleet(['status', '--postgres', NO_POSTGRES, '--accounts', file]);
    expect(run.code).toBe(2);
    expect(run.err).toContain('account "acme" is given twice: line 3, column 5 and line 4, column 5');
  });
});

describe('fleet subcommands: --help', () => {
  for (const command of ['enqueue', 'work', 'status', 'plan']) {
    it(`fleet ${command} --help shows examples of ${command} and its exit codes`, async () => {
      const run = await fleet([command, '--help']);
      expect(run.code).toBe(0);
      expect(run.out).toMatch(new RegExp(`^Examples:\\n(  \\$ seo-visibility fleet ${command} .*\\n)+`, 'm'));
      expect(run.out).toMatch(/^Exit codes:\n {2}0 /m);
      expect(run.out).toMatch(/^ {2}2 +bad usage/m);
      // 75 is work's alone: only it can be stopped part-way.
      if (command === 'work') expect(run.out).toMatch(/^ {2}75 /m);
      else expect(run.out).not.toMatch(/^ {2}75 /m);
    });
  }
});
