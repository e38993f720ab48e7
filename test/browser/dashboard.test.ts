import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildDashboard, nodeBuiltinsIn } from '../../examples/browser-dashboard/build.js';
import { repoRoot } from '../package/support.js';
import { serveStatic } from './static-server.js';

// The example dashboard, bundled from the packed tarball as a browser app would bundle it, run in
// headless Chromium (Debian's, driven by playwright-core) through a real page. The simulator runs
// in the page too: the client's `fetch` is `sim.fetch`, so no service worker is needed.
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const consumerDir = inject('consumerDir');
const errors: string[] = [];
let workDir: string;
let site: Awaited<ReturnType<typeof serveStatic>>;
let browser: Browser;
let page: Page;
let builtins: string[];

const hasChromium = existsSync(CHROMIUM);
// `npm test` installs Chromium where it can (scripts/ensure-system-deps.sh); its absence is a
// failure with instructions, never a silent skip.
if (!hasChromium) throw new Error(`${CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium)`);

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'seo-visibility-browser-'));
  const outdir = join(workDir, 'site');
  builtins = nodeBuiltinsIn(await buildDashboard({ outdir, packageDir: consumerDir }));
  site = await serveStatic(outdir);
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--headless',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    // No --user-data-dir: playwright gives every launch a fresh temporary profile of its own.
  });
  page = await browser.newPage({ viewport: { width: 820, height: 900 } });
  page.on('pageerror', (error) => errors.push(error.message));
  // Every request must stay on the page's own origin: the API is simulated in the page.
  page.on('request', (request) => {
    if (!request.url().startsWith(site.url) && !request.url().startsWith('data:'))
      errors.push(`unexpected request ${request.url()}`);
  });
  await page.goto(site.url);
  await page.waitForFunction(() => document.body.dataset.status !== 'loading', undefined, { timeout: 30_000 });
});

afterAll(async () => {
  await browser?.close();
  await site?.close();
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

describe('browser dashboard (headless Chromium, packed SDK)', () => {
  it('bundles without any Node built-in', () => {
    expect(builtins).toEqual([]);
  });

  it('loads with no error', async () => {
    expect(await page.locator('#error').textContent()).toBe('');
    expect(await page.evaluate(() => document.body.dataset.status)).toBe('ready');
    expect(errors).toEqual([]);
  });

  it('lists projects with for await and draws 90 days of positions on the four channels', async () => {
    expect(await page.locator('#project').textContent()).toMatch(/ · https?:\/\//);
    // 90 daily checks; 89 between midnight UTC and the day's 02:00 UTC scan.
    expect(await page.locator('#keyword').textContent()).toMatch(/, (89|90) days$/);
    const series = await page.locator('#positions polyline').evaluateAll((lines) =>
      lines.map((line) => ({
        label: line.getAttribute('data-series'),
        points: (line.getAttribute('points') ?? '').trim().split(/\s+/).length,
      })),
    );
    expect(series.map((s) => s.label)).toEqual(['Desktop', 'Mobile', 'AI mode', 'Maps']);
    for (const s of series) expect(s.points).toBeGreaterThan(80);
  });

  it("draws the brand's AI visibility per model", async () => {
    const bars = await page
      .locator('#visibility rect[data-model]')
      .evaluateAll((rects) => rects.map((r) => r.getAttribute('data-model') ?? ''));
    expect(bars.length).toBeGreaterThan(1);
    for (const model of bars) expect(model).toMatch(/^[\w.-]+\/[\w.-]+$/);
  });

  it('catches RateLimitedError in the browser', async () => {
    expect(await page.locator('#rate-limit').textContent()).toMatch(
      /^Rate limited \(429\): retry after \d\d:\d\d:\d\d$/,
    );
  });

  it('parses webhook events with parseWebhookEvent', async () => {
    const events = await page
      .locator('#events li')
      .evaluateAll((items) => items.map((li) => (li as HTMLElement).dataset.event));
    expect(events).toContain('webhook.test');
    expect(events.some((name) => name === 'keywords.updated' || name === 'prompts.updated')).toBe(true);
  });

  it('saves a screenshot as a CI artifact', async () => {
    const dir = join(repoRoot, 'artifacts');
    await mkdir(dir, { recursive: true });
    const buffer = await page.screenshot({ path: join(dir, 'browser-dashboard.png'), fullPage: true });
    expect(buffer.byteLength).toBeGreaterThan(10_000);
  });
});
