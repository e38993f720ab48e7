/**
 * Issue 22 §3: a 403 message holding OSC set-title, clear-screen and a right-to-left override reached
 * `fleet work` and `fleet status` output byte for byte. Real PostgreSQL and pg-boss (a system test);
 * the program runs in this process on fake streams, the "API" a loopback server refusing the key.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildProgram } from '../../src/cli/program.js';
import { type TestPostgres, startPostgres } from '../helpers/postgres-server.js';

const HOSTILE = 'Key revoked\x1b]0;pwned\x07\x1b[2J\x1b[H \u202eexe.txt\u202c\x9b31m\rDONE';
const UNSAFE = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

let pg: TestPostgres;
let api: Server;
let dir: string;
let accounts: string;
beforeAll(async () => {
  api = createServer((_req, res) =>
    res.writeHead(403, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        success: false,
        error: { code: 'FORBIDDEN', message: HOSTILE },
        meta: { request_id: 'req_1' },
      }),
    ),
  );
  [pg] = await Promise.all([startPostgres(), new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve))]);
  dir = mkdtempSync(join(tmpdir(), 'sv-fleet-text-'));
  accounts = join(dir, 'accounts.json');
  writeFileSync(
    accounts,
    JSON.stringify({
      baseUrl: `http://127.0.0.1:${(api.address() as AddressInfo).port}/api/v1`,
      accounts: { hostile: { keyEnv: 'HOSTILE_SEO_KEY' } },
    }),
  );
  vi.stubEnv('HOSTILE_SEO_KEY', 'sv_live_hostile_fleet_key_01');
}, 60_000);
afterAll(async () => {
  vi.unstubAllEnvs();
  await new Promise((resolve) => api?.close(resolve));
  await pg?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function fleet(command: string, extra: string[] = []): Promise<{ code: number; printed: string }> {
  let printed = '';
  const stream = { write: (s: string) => ((printed += s), true), isTTY: false } as unknown as NodeJS.WriteStream;
  let code = -1;
  const args = [
    'node',
    'seo-visibility',
    'fleet',
    command,
    '--postgres',
    pg.url,
    '--accounts',
    accounts,
    '--queue',
    'hostile-text',
    ...extra,
  ];
  await buildProgram({
    out: stream,
    err: stream,
    signal: new AbortController().signal,
    setExit: (c) => (code = c),
  }).parseAsync(args);
  return { code, printed };
}

describe('fleet output of a hostile server message', () => {
  it('work and status print the message readable, without a control character; --json keeps it exactly', async () => {
    expect((await fleet('enqueue')).code).toBe(0);
    const work = await fleet('work', ['--exit-when-idle']);
    expect(work.code, work.printed).toBe(1);
    expect(work.printed).toContain('Key revoked');
    expect(work.printed).not.toMatch(UNSAFE);
    const status = await fleet('status');
    expect(status.printed).toMatch(/hostile +failed: .*Key revoked/);
    expect(status.printed).not.toMatch(UNSAFE);
    const json = await fleet('status', ['--json']);
    expect(json.printed).not.toMatch(UNSAFE);
    expect(JSON.stringify(JSON.parse(json.printed))).toContain(JSON.stringify(HOSTILE).slice(1, -1));
  }, 120_000);
});
