/**
 * Headless Chromium for the tests that open a page in a real browser: Debian's `chromium` (or
 * `CHROMIUM_PATH`), driven by playwright-core. Importing this module throws at once when the binary
 * is missing, so a test file fails with the install command instead of a launch error.
 */
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';

/** The Chromium binary the tests launch. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!existsSync(CHROMIUM))
  throw new Error(`${CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium)`);

/**
 * Launches headless Chromium with no sandbox, GPU, QUIC or background traffic (no update checks,
 * no sync), so the only requests a page makes are its own. Close the browser when done.
 *
 * @example
 * const browser = await launchChromium();
 * try { … } finally { await browser.close(); }
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
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
  });
}

/**
 * Opens a file in a new 1000×1400 page, collecting every console message, page error, dialog
 * (dismissed) and request for anything but the file itself into `problems`.
 *
 * @example
 * const { page, problems } = await openWatched(browser, file);
 * expect(problems).toEqual([]);
 */
export async function openWatched(browser: Browser, file: string): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1000, height: 1400 } });
  const problems: string[] = [];
  const url = pathToFileURL(file).href;
  page.on('console', (m) => problems.push(`console ${m.type()}: ${m.text()}`));
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('dialog', (d) => {
    problems.push(`dialog: ${d.message()}`);
    void d.dismiss();
  });
  page.on('request', (r) => {
    if (r.url() !== url) problems.push(`request ${r.url()}`);
  });
  await page.goto(url, { waitUntil: 'load' });
  return { page, problems };
}
