/**
 * Issue 22 §3: a 403 message holding OSC set-title, clear-screen and a right-to-left override
 * reached the terminal byte for byte. Whatever the server writes, the CLI prints no control
 * character, escape sequence or bidi control of it. In-process: the program on fake streams, the
 * "API" a loopback server in this process.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { buildProgram } from '../../src/cli/program.js';

const HOSTILE = 'Key not allowed\x1b]0;you have been pwned\x07\x1b[2J\x1b[H \u202eexe.txt\u202c\x9b31m\rDONE';
const UNSAFE = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

let server: Server;
let dir: string;
beforeAll(async () => {
  server = createServer((_req, res) => {
    res.writeHead(403, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        success: false,
        error: { code: 'FORBIDDEN', message: HOSTILE },
        meta: { request_id: 'req_\x1b[31mred' },
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  dir = mkdtempSync(join(tmpdir(), 'sv-server-text-'));
  vi.stubEnv('SEO_VISIBILITY_API_KEY', 'sv_live_server_text_key');
  vi.stubEnv('SEO_VISIBILITY_BASE_URL', `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`);
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

/** Runs the command line in this process; returns what it printed and its exit code. */
async function run(args: string[]): Promise<{ code: number; printed: string }> {
  let printed = '';
  const stream = { write: (s: string) => ((printed += s), true), isTTY: false } as unknown as NodeJS.WriteStream;
  let code = -1;
  await buildProgram({
    out: stream,
    err: stream,
    signal: new AbortController().signal,
    setExit: (c) => (code = c),
  }).parseAsync(['node', 'seo-visibility', ...args]);
  return { code, printed };
}

describe('server text on the terminal', () => {
  test.each([
    ['sync', ['sync', '--ndjson', 'out', '--progress', 'lines']],
    ['plan', ['plan']],
  ])('%s: a hostile 403 message is printed readable, without a control character', async (_name, args) => {
    const { code, printed } = await run(args.map((a) => (a === 'out' ? join(dir, 'out') : a)));
    expect(code).toBe(1);
    expect(printed).toContain('Key not allowed');
    expect(printed).toContain('exe.txt');
    expect(printed).not.toMatch(UNSAFE);
  });
});
