import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chartRenderer } from '../../src/insights/report-charts.js';
import { gatherReport } from '../../src/insights/report-data.js';
import { reportHtml } from '../../src/insights/report-html.js';
import { launchChromium, openWatched } from '../helpers/chromium.js';
import { fleetDb, inProcessSource } from './fleet-store.js';
import { hostileStrings } from './hostile-text.js';
import { root } from './support.js';

// Issue 23 §1 in real Chromium: a report over several accounts of a fleet warehouse shows each
// account as a heading of its own with its projects under it (the same project in every account),
// and account ids that are markup stay text: nothing runs, nothing is fetched. A screenshot of the
// top of the page is kept in artifacts/report/ (gitignored).
const ARTIFACTS = join(root, 'artifacts', 'report');
/** As the HTML parser reads text: a NUL in body text is dropped, CR LF is LF. */
const readable = (s: string) => s.replace(/\u0000/g, '').replace(/\r\n?/g, '\n');

describe('a report over several accounts, in Chromium', () => {
  it('a heading per account, the project under each; hostile account ids shown as text, none runs or fetches', async () => {
    const accounts = ['acme', 'globex', ...hostileStrings().slice(0, 20)];
    const html = reportHtml(
      await gatherReport(inProcessSource(fleetDb(accounts)), { days: 7 }),
      await chartRenderer(),
      new Date('2026-03-15T00:00:00Z'),
    );
    mkdirSync(ARTIFACTS, { recursive: true });
    const file = join(ARTIFACTS, 'report-accounts.html');
    writeFileSync(file, html);
    const browser = await launchChromium();
    try {
      const { page, problems } = await openWatched(browser, file);
      await page.waitForTimeout(500);
      await page.screenshot({ path: join(ARTIFACTS, 'report-accounts.png') });
      expect(problems).toEqual([]);
      const dom = await page.evaluate(() => ({
        pwned: (window as unknown as { __pwned?: unknown }).__pwned,
        handlers: [...document.querySelectorAll('*')].filter((e) =>
          [...e.attributes].some((a) => a.name.toLowerCase().startsWith('on')),
        ).length,
        links: [...document.querySelectorAll('[href], [src], [action]')].length,
        accounts: [...document.querySelectorAll('section.account')].map((s) => ({
          heading: s.querySelector('h2.account')?.textContent,
          projects: [...s.querySelectorAll(':scope > section > h3')].map((h) => h.textContent),
        })),
      }));
      expect(dom).toMatchObject({ pwned: undefined, handlers: 0, links: 0 });
      // In the order the warehouse sorts account ids, each once, each with its own "Fixture".
      expect(dom.accounts.map((a) => a.heading).sort()).toEqual(accounts.map((a) => `Account ${readable(a)}`).sort());
      for (const a of dom.accounts) expect(a.projects, a.heading ?? '').toEqual(['Fixture']);
      expect(await page.locator('h2.account').first().isVisible()).toBe(true);
    } finally {
      await browser.close();
    }
  }, 180_000);
});
