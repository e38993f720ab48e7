/**
 * Issue 22 §5: HTTP_PROXY/HTTPS_PROXY were ignored unless NODE_USE_ENV_PROXY=1 was set before Node
 * started, and the CLI had no other way through a corporate proxy. The CLI now honours the proxy
 * variables (and NO_PROXY) itself. In-process: the program on fake streams, a tiny forward proxy and
 * the "API" as loopback servers in this process.
 */
import { type Server, createServer, request } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { getGlobalDispatcher, setGlobalDispatcher } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import { buildProgram } from '../../src/cli/program.js';

let api: Server;
let proxy: Server;
const proxied: string[] = [];
const original = getGlobalDispatcher();

const portOf = (server: Server) => (server.address() as AddressInfo).port;
const listen = (server: Server) => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

beforeAll(async () => {
  // The API: refuses the key at once (401 is not retried), which is all a plan needs to be seen.
  api = createServer((_req, res) =>
    res
      .writeHead(401, { 'content-type': 'application/json' })
      .end('{"success":false,"error":{"code":"UNAUTHORIZED","message":"bad key"},"meta":{}}'),
  );
  // A forward proxy, as a corporate one: CONNECT tunnels (undici's ProxyAgent tunnels every
  // request, https:// or not), and absolute-URL requests forwarded.
  proxy = createServer((req, res) => {
    proxied.push(`${req.method} ${req.url}`);
    const target = new URL(req.url ?? '');
    const upstream = request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname + target.search,
        method: req.method,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  proxy.on('connect', (req, socket, head) => {
    proxied.push(`CONNECT ${req.url}`);
    const [host, port] = (req.url ?? '').split(':');
    const upstream = connect(Number(port), host, () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
  });
  await Promise.all([listen(api), listen(proxy)]);
});
afterEach(() => {
  vi.unstubAllEnvs();
  setGlobalDispatcher(original);
  proxied.length = 0;
});
afterAll(async () => {
  await Promise.all([api, proxy].map((server) => new Promise((resolve) => server.close(resolve))));
});

async function plan(env: Record<string, string>): Promise<{ code: number; printed: string }> {
  vi.stubEnv('SEO_VISIBILITY_API_KEY', 'sv_live_proxy_test_key');
  vi.stubEnv('SEO_VISIBILITY_BASE_URL', `http://127.0.0.1:${portOf(api)}/api/v1`);
  for (const name of [
    'HTTP_PROXY',
    'http_proxy',
    'HTTPS_PROXY',
    'https_proxy',
    'NO_PROXY',
    'no_proxy',
    'NODE_USE_ENV_PROXY',
  ])
    vi.stubEnv(name, env[name] ?? '');
  let printed = '';
  const stream = { write: (s: string) => ((printed += s), true), isTTY: false } as unknown as NodeJS.WriteStream;
  let code = -1;
  await buildProgram({
    out: stream,
    err: stream,
    signal: new AbortController().signal,
    setExit: (c) => (code = c),
  }).parseAsync(['node', 'seo-visibility', 'plan']);
  return { code, printed };
}

describe('the CLI honours the proxy variables', () => {
  test('HTTP_PROXY: the requests go through the proxy', async () => {
    const { printed } = await plan({ HTTP_PROXY: `http://127.0.0.1:${portOf(proxy)}` });
    expect(printed).toContain('bad key');
    expect(proxied).toContain(`CONNECT 127.0.0.1:${portOf(api)}`);
  });

  test('lower-case http_proxy too', async () => {
    await plan({ http_proxy: `http://127.0.0.1:${portOf(proxy)}` });
    expect(proxied.length).toBeGreaterThan(0);
  });

  test('NO_PROXY naming the host: straight to the API', async () => {
    const { printed } = await plan({ HTTP_PROXY: `http://127.0.0.1:${portOf(proxy)}`, NO_PROXY: '127.0.0.1' });
    expect(printed).toContain('bad key');
    expect(proxied).toEqual([]);
  });

  test('an unreadable proxy URL is refused naming the variable, never its value (it may hold a password)', async () => {
    const { code, printed } = await plan({ HTTPS_PROXY: 'proxy.corp:3128 secret-pass' }).catch(
      (error: { exitCode?: number; message: string }) => ({ code: error.exitCode ?? -1, printed: error.message }),
    );
    expect(code).toBe(2);
    expect(printed).toContain('HTTPS_PROXY: expected a proxy URL');
    expect(printed).not.toContain('secret-pass');
  });

  test('no proxy variable: straight to the API', async () => {
    const { printed } = await plan({});
    expect(printed).toContain('bad key');
    expect(proxied).toEqual([]);
  });
});
