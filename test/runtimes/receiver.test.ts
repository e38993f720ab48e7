import { type ChildProcess, spawn } from 'node:child_process';
import { copyFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Miniflare } from 'miniflare';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { repoRoot, toolPath } from '../package/support.js';
import { bundleWorker } from './workerd.js';

// The webhook receiver of the packed SDK (seo-visibility/webhooks) on the runtimes its Fetch
// handler is for: served by Deno.serve and Bun.serve over real HTTP, and as a Cloudflare Worker in
// workerd (miniflare). The same deliveries go to each: a valid event (handled once, also when
// repeated), a forged one without the secret, a wrong secret, a malformed event, the wrong method,
// and bodies over the limit, declared or streamed.
const consumerDir = inject('consumerDir');
const secret = 'runtime-proof-secret-0123456789abcdefghijklmnop';
const otherSecret = 'another-secret-0123456789abcdefghijklmnopqrstu';
const auditId = '0b3c7a52-9f0e-4d7b-8a55-2f7d2c1e6a10';
const event = {
  event: 'audit.completed',
  timestamp: '2026-06-10T12:00:00Z',
  project_id: '5f0c6d8e-1a2b-4c3d-8e9f-0a1b2c3d4e5f',
  data: { audit_id: auditId, target_url: 'https://example.com/', pages_crawled: 42 },
};
const json = { 'content-type': 'application/json' };

type Send = (path: string, init: RequestInit) => Promise<Response>;

/** A body of `bytes` sent in 1 KiB chunks, without content-length: only counting can refuse it. */
function streamed(bytes: number): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= bytes) return controller.close();
      controller.enqueue(new TextEncoder().encode(' '.repeat(1024)));
      sent += 1024;
    },
  });
}

/** Sends every delivery; resolves with each one's status and what reached a handler. */
async function deliver(send: Send) {
  const post = (path: string, body: BodyInit, headers: Record<string, string> = json) =>
    send(path, { method: 'POST', headers, body, duplex: 'half' } as RequestInit);
  const status = async (response: Promise<Response>) => {
    const r = await response;
    await r.arrayBuffer();
    return r.status;
  };
  const statuses = {
    valid: await status(post(`/hooks/seo/${secret}`, JSON.stringify(event))),
    repeat: await status(post(`/hooks/seo/${secret}`, JSON.stringify(event))),
    forged: await status(post('/hooks/seo', JSON.stringify({ ...event, data: { ...event.data, audit_id: 'forged' } }))),
    wrongSecret: await status(
      post(
        `/hooks/seo/${otherSecret}`,
        JSON.stringify({ ...event, data: { ...event.data, audit_id: 'wrong-secret' } }),
      ),
    ),
    malformed: await status(
      post(
        `/hooks/seo/${secret}`,
        JSON.stringify({ ...event, data: { ...event.data, audit_id: 'malformed', pages_crawled: 'lots' } }),
      ),
    ),
    wrongMethod: await status(send(`/hooks/seo/${secret}`, { method: 'GET' })),
    wrongType: await status(post(`/hooks/seo/${secret}`, JSON.stringify(event), { 'content-type': 'text/plain' })),
    oversizedDeclared: await status(post(`/hooks/seo/${secret}`, JSON.stringify({ ...event, pad: 'x'.repeat(8192) }))),
    oversizedStreamed: await status(post(`/hooks/seo/${secret}`, streamed(16 * 1024))),
  };
  // Handlers run after the answer: wait (bounded) for the valid one, then look once more.
  let handled: unknown[] = [];
  for (let i = 0; i < 50 && handled.length === 0; i++) {
    handled = ((await (await send('/handled', { method: 'GET' })).json()) as { handled: unknown[] }).handled;
    if (handled.length === 0) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { statuses, handled };
}

function expectFailClosed(result: Awaited<ReturnType<typeof deliver>>): void {
  expect(result.statuses).toEqual({
    valid: 202,
    repeat: 202,
    forged: 404,
    wrongSecret: 404,
    malformed: 400,
    wrongMethod: 405,
    wrongType: 415,
    oversizedDeclared: 413,
    oversizedStreamed: 413,
  });
  // Only the valid event reached a handler, once.
  expect(result.handled).toEqual([auditId]);
}

/** Starts fixtures/receiver-serve.mjs under `cmd` and resolves with its base URL once it listens. */
async function serveWith(
  cmd: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ base: string; child: ChildProcess }> {
  await copyFile(
    join(repoRoot, 'test', 'runtimes', 'fixtures', 'receiver-serve.mjs'),
    join(consumerDir, 'receiver-serve.mjs'),
  );
  const child = spawn(cmd, [...args, 'receiver-serve.mjs'], {
    cwd: consumerDir,
    env: { ...process.env, PATH: toolPath, NO_COLOR: '1', WEBHOOK_SECRET: secret, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const base = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${cmd} did not listen:\n${out}`)), 60_000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const match = /\{"port":(\d+)\}/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(`http://127.0.0.1:${match[1]}`);
      }
    });
    child.on('exit', (code) => reject(new Error(`${cmd} exited ${code}:\n${out}`)));
  });
  return { base, child };
}

const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
});

const overHttp =
  (base: string): Send =>
  (path, init) =>
    fetch(`${base}${path}`, init);

describe('the packed webhook receiver on other runtimes', () => {
  it('fails closed under Deno.serve', async () => {
    const { base } = await serveWith(
      'deno',
      ['run', '--node-modules-dir=manual', '--allow-net=127.0.0.1', '--allow-env', '--allow-read'],
      { DENO_NO_UPDATE_CHECK: '1', DENO_DIR: join(consumerDir, '.deno') },
    );
    const result = await deliver(overHttp(base));
    expectFailClosed(result);
  });

  it('fails closed under Bun.serve', async () => {
    const { base } = await serveWith('bun', [], {});
    expectFailClosed(await deliver(overHttp(base)));
  });

  it('fails closed as a Cloudflare Worker in workerd, handlers kept alive by ctx.waitUntil', async () => {
    const bundle = await bundleWorker(consumerDir, 'receiver-worker.mjs');
    expect(bundle.external).toEqual([]);
    // The bundle as its one module, as wrangler hands it to workerd (miniflare's own scan of a bare
    // script refuses any import() it cannot resolve statically, such as the PostgreSQL store's pg).
    const mf = new Miniflare({
      modules: [{ type: 'ESModule', path: 'worker.mjs', contents: bundle.script }],
      bindings: { WEBHOOK_SECRET: secret },
      compatibilityDate: '2025-09-01',
    });
    try {
      expectFailClosed(
        await deliver(
          (path, init) => mf.dispatchFetch(`http://worker.test${path}`, init as never) as unknown as Promise<Response>,
        ),
      );
    } finally {
      await mf.dispose();
    }
  });
});
