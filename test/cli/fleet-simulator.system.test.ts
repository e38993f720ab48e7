import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CommanderError } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/program.js';
import { startPostgres, type TestPostgres } from '../helpers/postgres-server.js';

// Issue 24 §6: the fleet tried with no key at all. `fleet work --simulator` serves each account of
// the file from the built-in simulator, on a real (throwaway) PostgreSQL, in this process.
let server: TestPostgres;
let dir: string;
let file: string;
beforeAll(async () => {
  server = await startPostgres();
  dir = mkdtempSync(join(tmpdir(), 'sv-fleet-sim-'));
  file = join(dir, 'accounts.json');
  writeFileSync(
    file,
    JSON.stringify({
      accounts: {
        acme: { keyEnv: 'ACME_SEO_KEY', datasets: ['projects.list', 'rankings.list'] },
        globex: { keyEnv: 'GLOBEX_SEO_KEY', datasets: ['projects.list'] },
      },
    }),
  );
}, 60_000);
afterAll(async () => {
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function fleet(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  let code = 0;
  const sink = (write: (s: string) => void) =>
    ({ write: (s: string) => (write(s), true), isTTY: false }) as unknown as NodeJS.WriteStream;
  try {
    await buildProgram({
      out: sink((s) => (out += s)),
      err: sink((s) => (err += s)),
      setExit: (c) => (code = c),
      signal: new AbortController().signal,
    }).parseAsync([
      'node',
      'seo-visibility',
      'fleet',
      ...args,
      '--postgres',
      server.url,
      '--accounts',
      file,
      '--schema',
      'try_it',
    ]);
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    code = 2;
  }
  return { code, out, err };
}

describe('fleet --simulator: the fleet tried without keys', () => {
  it('plan and work run every account of the file on the built-in simulator; no key variable is read', async () => {
    expect(process.env['ACME_SEO_KEY']).toBeUndefined();
    const plan = await fleet(['plan', '--simulator']);
    expect(plan.code, plan.err).toBe(0);
    expect(plan.out).toMatch(/^acme +\d+ /m);
    expect((await fleet(['enqueue'])).code).toBe(0);
    const work = await fleet(['work', '--simulator', '--exit-when-idle']);
    expect(work.code, work.err + work.out).toBe(0);
    expect(work.out).toMatch(/the built-in simulator/);
    expect(work.out).toMatch(/2 run\(s\): 2 completed, 0 stopped, 0 failed\./);
    const status = await fleet(['status']);
    expect(status.out).toMatch(/^acme +completed /m);
    expect(status.out).toMatch(/^globex +completed /m);
  }, 120_000);
});
