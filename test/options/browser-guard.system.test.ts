/**
 * Issue 22 §3 in a real browser: with `fetch: window.fetch` passed, the guard was off and the real
 * key went cross-origin from the page. The SDK's main entry, bundled for the browser, runs in
 * headless Chromium (a real page, from a loopback origin): every way of passing a fetch is refused
 * before anything is sent: only the client that opted in sends the key to the API's origin. A
 * system test (Chromium).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { build } from 'esbuild';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const KEY = 'sv_live_in_a_real_page_0123456789';
let browser: Browser;
let site: Server;
let origin: string;

beforeAll(async () => {
  const bundle = await build({
    entryPoints: [join(import.meta.dirname, '../../src/index.ts')],
    bundle: true,
    format: 'iife',
    globalName: 'SV',
    platform: 'browser',
    write: false,
    logLevel: 'silent',
  });
  const script = bundle.outputFiles[0]!.text;
  site = createServer((req, res) => {
    if (req.url === '/sdk.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
    else res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><script src="/sdk.js"></script>');
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--headless',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => site?.close(resolve));
});

describe('the browser guard in Chromium', () => {
  it('refuses window.fetch, a wrapper and no fetch, sending nothing; only the opt-in starts, and sends the key', async () => {
    const page = await browser.newPage();
    // The API's origin, answered here: which page context sent the key there, and how often.
    const keySent: string[] = [];
    await page.route('https://api.example.com/**', async (route) => {
      if (route.request().headers()['authorization'] === `Bearer ${KEY}`) keySent.push(route.request().url());
      await route.fulfill({
        status: 401,
        contentType: 'application/json',
        headers: { 'access-control-allow-origin': '*', 'access-control-allow-headers': '*' },
        body: '{"success":false,"error":{"code":"UNAUTHORIZED","message":"no"},"meta":{}}',
      });
    });
    await page.goto(origin);
    const outcomes = await page.evaluate(async (key) => {
      const { SeoVisibilityClient } = (globalThis as unknown as { SV: typeof import('../../src/index.js') }).SV;
      const baseUrl = 'https://api.example.com/api/v1';
      const tryWith = async (options: object) => {
        try {
          const client = new SeoVisibilityClient({
            apiKey: key,
            baseUrl,
            maxRetries: 0,
            timeout: 2_000,
            rateLimit: false,
            ...options,
          });
          await client.projects.list().catch(() => undefined);
          return `started (${client.baseUrl})`;
        } catch (error) {
          return `refused: ${(error as { argument?: string }).argument}`;
        }
      };
      return [
        await tryWith({}),
        await tryWith({ fetch: window.fetch }),
        await tryWith({ fetch: (input: RequestInfo | URL, init?: RequestInit) => window.fetch(input, init) }),
        await tryWith({ fetch: window.fetch, dangerouslyAllowBrowser: true }),
      ];
    }, KEY);
    expect(outcomes).toEqual([
      'refused: dangerouslyAllowBrowser',
      'refused: dangerouslyAllowBrowser',
      'refused: dangerouslyAllowBrowser',
      'started (https://api.example.com/api/v1)',
    ]);
    // The one client the page opted in for sent the key (and its preflight carried none); the refused ones sent nothing.
    expect(keySent).toEqual(['https://api.example.com/api/v1/projects']);
    await page.close();
  }, 60_000);
});
