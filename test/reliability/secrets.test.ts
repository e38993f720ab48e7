/**
 * Issue 22 §3 and §5, the secrets slice: the key may come back from the server (echoed in a header,
 * in `meta.request_id`, in an error message, in a record), and must still reach no object the SDK
 * hands out. Each property plants a random key in one place the server controls and scans every
 * output: the error (cause chain, `inspect`, JSON), hook payloads, log lines, OpenTelemetry spans,
 * `withResponse()` (data, meta, the Response's headers and status text) and page objects.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import fc from 'fast-check';
import { afterAll, describe, expect, test, vi } from 'vitest';
import { buildProgram } from '../../src/cli/program.js';
import { SeoVisibilityClient } from '../../src/index.js';
import { ndjsonStore } from '../../src/sync/index.js';
import { otelHooks } from '../../src/otel/index.js';
import { parseWebhookEvent } from '../../src/webhooks/index.js';
import { projectFixture } from '../fixtures/records.js';
import { tracing } from '../otel/support.js';
import { renderings } from './support/kit.js';
import { sendJson, startLoopback } from './support/loopback.js';
import { describeError, settle } from './support/outcome.js';
import { useReport } from './support/report.js';
import { failureOf, runs, timeoutFor } from './support/runs.js';

const report = useReport('secrets');
const BASE = 'https://api.example.test/api/v1';

/** Every place of a response a server (or a gateway in front of it) writes. */
const SITES = [
  'header value',
  'header name',
  'status text',
  'meta.request_id',
  'meta.request_id, \\u-escaped',
  'error.code',
  'error.message',
  'record value',
  'record field name',
  'record value, \\u-escaped',
  'a non-JSON body',
  "a custom fetch's error and its cause",
] as const;
type Site = (typeof SITES)[number];
const STATUSES = [200, 404, 429, 500] as const;

const escaped = (text: string) => [...text].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
const far = () => Math.ceil(Date.now() / 1000) + 3600;

/** The body and headers a server that echoes `key` at `site` answers with. */
function answer(site: Site, status: number, key: string): Response {
  if (site === "a custom fetch's error and its cause") {
    const cause = { request: { headers: { authorization: `Bearer ${key}` } }, message: `sent Bearer ${key}` };
    throw new Error(`fetch to ${BASE} with Bearer ${key} failed`, { cause });
  }
  const requestId = site === 'meta.request_id' ? key : 'req_1';
  const meta = `{"request_id":${site === 'meta.request_id, \\u-escaped' ? `"${escaped(key)}"` : JSON.stringify(requestId)},"rate_limit":{"limit":100,"remaining":${status === 429 ? 0 : 99},"reset":${far()}}}`;
  const record = {
    id: '3f2b9c4e-8a1d-4c6e-9b7a-2d5e1f0a6c3b',
    name: site === 'record value' ? `echo ${key}` : 'Acme',
    ...(site === 'record field name' ? { [key]: 1 } : {}),
  };
  let recordText = JSON.stringify(record);
  if (site === 'record value, \\u-escaped') recordText = recordText.replace('"Acme"', `"${escaped(key)}"`);
  const error = JSON.stringify({
    code: site === 'error.code' ? key : status === 429 ? 'RATE_LIMITED' : 'SOME_ERROR',
    message: site === 'error.message' ? `bad key Bearer ${key}` : 'nope',
  });
  const body =
    site === 'a non-JSON body'
      ? `<html>Bearer ${key}</html>`
      : status < 400
        ? `{"success":true,"data":[${recordText}],"meta":${meta}}`
        : `{"success":false,"error":${error},"meta":${meta}}`;
  const headers = new Headers({ 'content-type': 'application/json' });
  if (site === 'header value') headers.set('x-echo', `Bearer ${key}`);
  if (site === 'header name') headers.set(key, '1');
  return new Response(body, { status, statusText: site === 'status text' ? `Denied ${key}` : '', headers });
}

describe('secrets: the key the caller copies into its own header', () => {
  test('an x-api-key header of the caller shows as *** in every request, retry, log line and span', async () => {
    const key = 'sv_live_copied_into_a_header_0123';
    const otel = tracing();
    const observed: unknown[] = [];
    const log = (...args: unknown[]) => observed.push(args);
    const tracingHooks = otelHooks({ tracerProvider: otel.provider });
    let calls = 0;
    const client = new SeoVisibilityClient({
      apiKey: key,
      baseUrl: BASE,
      headers: { 'x-api-key': key },
      fetch: async () =>
        ++calls === 1
          ? answer('meta.request_id', 500, 'not-the-key-000000000000')
          : new Response(JSON.stringify({ success: true, data: [projectFixture], meta: { request_id: 'req_2' } }), {
              headers: { 'content-type': 'application/json' },
            }),
      rateLimit: false,
      retryBackoff: { initialDelay: 1, maxDelay: 1 },
      logger: { debug: log, info: log, warn: log, error: log },
      hooks: {
        onRequest: [...tracingHooks.onRequest, (info) => observed.push(info)],
        onResponse: [...tracingHooks.onResponse, (info) => observed.push(info)],
        onError: [...tracingHooks.onError, (info) => observed.push(info)],
        onRetry: [...tracingHooks.onRetry, (info) => observed.push(info)],
      },
    });
    await client.projects.list();
    const spans = otel.finished().map((span) => ({ attributes: span.attributes, events: span.events }));
    await otel.shutdown();
    const leaked = [
      ['hook payloads and log lines', observed],
      ['spans', spans],
    ]
      .filter(([, value]) => renderings(value).some((text) => text.includes(key)))
      .map(([where]) => where as string);
    const clean = 'the key in no request, retry, log line or span';
    report.check({
      area: 'Secrecy: a key the caller copies',
      input: "the key in the caller's own x-api-key header; one 500, retried",
      cases: 1,
      expected: clean,
      observed: leaked.length === 0 ? clean : `leaked in ${leaked.join(', ')}`,
      serverSaw: `${calls} requests`,
      expectedServer: '2 requests',
    });
  });
});

describe('secrets: the key the server echoes reaches no output', { timeout: timeoutFor(60_000) }, () => {
  const otel = tracing();
  afterAll(() => otel.shutdown());

  test('random keys × every server-controlled field × status: no error, hook, log, span, result or page holds the key', async () => {
    const perSite = new Map<Site, { cases: number; leaks: Set<string> }>();
    const keyArb = fc.stringMatching(/^[A-Za-z0-9_]{20,40}$/).map((random) => `sv_live_${random}`);
    const failure = await failureOf(
      fc.assert(
        // Every site with every status, each with its own random keys.
        fc.asyncProperty(
          fc.constantFrom(...SITES.flatMap((site) => STATUSES.map((status) => [site, status] as const))),
          keyArb,
          async ([site, status], key) => {
            otel.reset();
            const observed: unknown[] = [];
            const log = (...args: unknown[]) => observed.push(args);
            const tracingHooks = otelHooks({ tracerProvider: otel.provider });
            const client = new SeoVisibilityClient({
              apiKey: key,
              baseUrl: BASE,
              fetch: async () => answer(site, status, key),
              maxRetries: 1,
              maxRetryDelay: 1,
              rateLimit: false,
              retryBackoff: { initialDelay: 1, maxDelay: 1 },
              logger: { debug: log, info: log, warn: log, error: log },
              hooks: {
                onRequest: [...tracingHooks.onRequest, (info) => observed.push(info)],
                onResponse: [...tracingHooks.onResponse, (info) => observed.push(info)],
                onError: [...tracingHooks.onError, (info) => observed.push(info)],
                onRetry: [...tracingHooks.onRetry, (info) => observed.push(info)],
              },
            });
            const withResponse = await settle(client.projects.list().withResponse());
            const page = await settle(client.projects.list());
            const items = await settle(client.projects.list().toArray({ limit: 10 }));
            const result = withResponse.value as { response?: Response } | undefined;
            const places: Array<[string, unknown]> = [
              ['error', withResponse.error],
              ['error.cause', (withResponse.error as { cause?: unknown } | undefined)?.cause],
              ['hook payloads and log lines', observed],
              [
                'spans',
                otel.finished().map((span) => ({
                  name: span.name,
                  attributes: span.attributes,
                  events: span.events,
                  status: span.status,
                })),
              ],
              ['withResponse()', result],
              ['withResponse().response headers', result?.response ? [...result.response.headers] : undefined],
              ['withResponse().response status text', result?.response?.statusText],
              ['page', page.value ?? page.error],
              ['toArray()', items.value ?? items.error],
            ];
            const leaks = places
              .filter(([, value]) => renderings(value).some((text) => text.includes(key)))
              .map(([where]) => where);
            const entry = perSite.get(site) ?? { cases: 0, leaks: new Set<string>() };
            entry.cases++;
            for (const where of leaks) entry.leaks.add(`${where} (${status}, ${describeError(withResponse.error)})`);
            perSite.set(site, entry);
            expect(
              leaks,
              `${site}, HTTP ${status}: ${inspect(
                places.filter(([where]) => leaks.includes(where)),
                { depth: 6 },
              )}`,
            ).toEqual([]);
          },
        ),
        {
          ...runs(150),
          examples: SITES.flatMap((site) =>
            STATUSES.map(
              (status) =>
                [[site, status] as const, `sv_live_${site.length}x${status}abcdefghijklmnop`] as [
                  readonly [Site, number],
                  string,
                ],
            ),
          ),
        },
      ),
    );
    const clean = 'key in no error, cause, hook payload, log line, span, withResponse() result or page';
    report.checkAll(
      SITES.filter((site) => perSite.has(site)).map((site) => {
        const e = perSite.get(site)!;
        return {
          area: 'Secrecy: a key the server echoes',
          input: `the key echoed: ${site} (random keys; HTTP ${STATUSES.join(', ')})`,
          cases: e.cases,
          expected: clean,
          observed: e.leaks.size === 0 ? clean : `leaked in ${[...e.leaks].slice(0, 3).join('; ')}`,
          serverSaw: 'the key on the wire only',
        };
      }),
      failure,
    );
  });
});

describe('secrets: the URL a redirect led to', () => {
  test("a redirect to a URL holding the key: withResponse()'s response.url and the hooks show ***", async () => {
    const key = 'sv_live_redirected_0123456789';
    const server = await startLoopback(({ hit, req, res }) => {
      if (!req.url?.includes('landing')) {
        res.writeHead(302, { location: `/api/v1/landing?k=${key}` }).end();
        return;
      }
      sendJson(res, 200, { success: true, data: [projectFixture], meta: { request_id: `req_${hit.n}` } });
    });
    const observed: unknown[] = [];
    try {
      const client = new SeoVisibilityClient({
        apiKey: key,
        baseUrl: server.url,
        rateLimit: false,
        hooks: { onResponse: (info) => observed.push(info) },
      });
      const { response } = await client.projects.list().withResponse();
      const leaked = [
        ['response.url', response.url],
        ['inspect(response)', inspect(response)],
        ['onResponse', observed],
      ]
        .filter(([, v]) => renderings(v).some((t) => t.includes(key)))
        .map(([w]) => w as string);
      const clean = 'the key in no response URL or hook payload';
      report.check({
        area: 'Secrecy: a key the server echoes',
        input: 'a 302 to a URL holding the key, followed',
        cases: 1,
        expected: clean,
        observed: leaked.length === 0 ? clean : `leaked in ${leaked.join(', ')}`,
        serverSaw: `${server.hits.length} requests`,
        expectedServer: '2 requests',
      });
    } finally {
      await server.close();
    }
  });
});

describe('secrets: a rate gate that quotes the key', () => {
  test("a custom gate's error naming the key reaches the caller as ***", async () => {
    const key = 'sv_live_quoted_by_a_gate_0123';
    let sent = 0;
    const client = new SeoVisibilityClient({
      apiKey: key,
      baseUrl: BASE,
      fetch: async () => (sent++, new Response('{}')),
      rateLimit: {
        gate: {
          createGate: ({ apiKey }) => ({
            acquire: async () => {
              throw new Error(`no budget left for ${apiKey}`, { cause: { key: apiKey } });
            },
          }),
        },
      },
    });
    const { error } = await settle(client.projects.list());
    const clean = 'the key in no error or cause';
    report.check({
      area: 'Secrecy: a key the caller copies',
      input: 'a custom rateLimit.gate whose acquire() throws an error (and cause) quoting the key it was given',
      cases: 1,
      expected: clean,
      observed:
        renderings(error).some((t) => t.includes(key)) ||
        renderings((error as { cause?: unknown }).cause).some((t) => t.includes(key))
          ? 'the key in the error'
          : clean,
      serverSaw: `${sent} requests`,
      expectedServer: '0 requests',
    });
  });
});

describe('secrets: the browser guard', () => {
  test('in a page, a client given window.fetch (or any fetch) is refused unless dangerouslyAllowBrowser is set', () => {
    vi.stubGlobal('window', { fetch: globalThis.fetch });
    vi.stubGlobal('document', {});
    vi.stubGlobal('process', { env: {}, versions: {} });
    const outcome = (options: object) => {
      try {
        new SeoVisibilityClient({ apiKey: 'sv_live_in_a_page_0123456789', baseUrl: BASE, ...options });
        return 'started';
      } catch (error) {
        return `refused (${(error as { argument?: string }).argument})`;
      }
    };
    const seen = [
      outcome({}),
      outcome({ fetch: globalThis.fetch }),
      outcome({ fetch: (i: RequestInfo | URL, o?: RequestInit) => fetch(i, o) }),
      outcome({ fetch: globalThis.fetch, dangerouslyAllowBrowser: true }),
    ];
    vi.unstubAllGlobals();
    report.check({
      area: 'Secrecy: browser guard',
      input:
        'a browser page: no fetch; window.fetch; a wrapper of fetch; window.fetch with dangerouslyAllowBrowser: true',
      cases: 4,
      expected: 'refused (dangerouslyAllowBrowser) ×3, then started',
      observed: `${seen.slice(0, 3).every((s) => s === 'refused (dangerouslyAllowBrowser)') ? 'refused (dangerouslyAllowBrowser) ×3' : seen.slice(0, 3).join(', ')}, then ${seen[3]}`,
      serverSaw: 'nothing: refused before any request',
    });
  });
});

describe('misleading text', () => {
  test('server text printed by the CLI: escape sequences, C0/C1 and bidi controls are removed', async () => {
    const hostile = 'Key not allowed\x1b]0;pwned\x07\x1b[2J\x1b[H \u202eexe.txt\u202c\x9b31m\rDONE';
    const server = await startLoopback(({ res }) =>
      sendJson(res, 403, {
        success: false,
        error: { code: 'FORBIDDEN', message: hostile },
        meta: { request_id: 'req_1' },
      }),
    );
    vi.stubEnv('SEO_VISIBILITY_API_KEY', 'sv_live_terminal_text_0123');
    vi.stubEnv('SEO_VISIBILITY_BASE_URL', server.url);
    let printed = '';
    const stream = { write: (s: string) => ((printed += s), true), isTTY: false } as unknown as NodeJS.WriteStream;
    let code = -1;
    try {
      await buildProgram({
        out: stream,
        err: stream,
        signal: new AbortController().signal,
        setExit: (c) => (code = c),
      }).parseAsync(['node', 'seo-visibility', 'plan']);
    } finally {
      vi.unstubAllEnvs();
      await server.close();
    }
    const unsafe = printed.match(/[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g) ?? [];
    report.check({
      area: 'Terminal: server text',
      input:
        'seo-visibility plan; a 403 whose message holds OSC set-title, clear-screen, CSI 8-bit, CR and a right-to-left override',
      cases: 1,
      expected: 'exit 1; the message readable, 0 control characters printed',
      observed: `exit ${code}; the message ${printed.includes('Key not allowed') && printed.includes('exe.txt') ? 'readable' : 'missing'}, ${unsafe.length} control characters printed`,
      serverSaw: `${server.hits.length} request(s)`,
    });
  });

  test('a webhook event missing a field names it and what it should be', () => {
    const event = {
      event: 'audit.completed',
      timestamp: '2026-01-01T00:00:00Z',
      project_id: 'p1',
      data: { audit_id: 'a1', target_url: 'https://example.com' },
    };
    let message = 'parsed';
    try {
      parseWebhookEvent(JSON.stringify(event));
    } catch (error) {
      message = (error as Error).message;
    }
    report.check({
      area: 'Errors: say what happened',
      input: 'a webhook event without data.pages_crawled',
      cases: 1,
      expected:
        'Invalid payload: not a valid webhook event: the "audit.completed" event has no data.pages_crawled (expected number)',
      observed: message,
      serverSaw: 'no request (parsing only)',
    });
  });

  test('in_use while the holder is still starting: no "pid 0 on host an unknown host"', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sv-secrets-lock-'));
    writeFileSync(join(dir, '_lock.json'), ''); // created, not yet written: a process in its open
    const error = await ndjsonStore(dir)
      .open()
      .then(
        () => undefined,
        (e: unknown) => e as Error,
      );
    rmSync(dir, { recursive: true, force: true });
    report.check({
      area: 'Errors: say what happened',
      input: 'an NDJSON store whose lock file another process has just created and not yet written',
      cases: 1,
      expected: 'in_use: another process that is still starting',
      observed: error
        ? `${(error as { code?: string }).code}: ${/another process that is still starting/.test(error.message) ? 'another process that is still starting' : error.message}`
        : 'opened (the live lock was taken over)',
      serverSaw: 'no request',
    });
  });
});
