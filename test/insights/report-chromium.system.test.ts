import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chartRenderer } from '../../src/insights/report-charts.js';
import { gatherReport } from '../../src/insights/report-data.js';
import { reportHtml } from '../../src/insights/report-html.js';
import type { DatasetName, Row } from '../../src/sync/index.js';
import { addDays } from '../../src/sync/datasets/rows.js';
import { launchChromium, openWatched } from '../helpers/chromium.js';
import { hostileStrings } from './hostile-text.js';
import { inProcessSource } from './in-process-source.js';
import { REPORT_FIXTURE } from './report-fixture.js';
import { root } from './support.js';

// Issue 23 §2 and §5 in real Chromium: the report shows no console error, fetches nothing but
// itself, names every chart line in a legend that is visible and not cut, and runs none of the
// thousands of hostile strings an API could send as keywords, locations, models, domains or audit
// issues. A screenshot of the readable report is kept in artifacts/report/ (gitignored).
const ARTIFACTS = join(root, 'artifacts', 'report');
const H = hostileStrings();
const Q = '77777777-7777-4777-8777-777777777777';
const END = '2026-03-14';

/** A project whose every text is hostile: H as domains and audit issues, some as keywords, locations, models, its name. */
function hostileAccount(): Partial<Record<DatasetName, Row[]>> {
  const keywords = H.slice(0, 8);
  return {
    'projects.list': [{ id: Q, name: H[1], websiteUrl: 'https://hostile.example/', status: 'active' }],
    'rankings.history': keywords.flatMap((k, i) => [
      {
        project_id: Q,
        keyword_id: `kw-${i}`,
        keyword: k,
        check_date: addDays(END, -10),
        desktop_position: 20 + i,
        mobile_position: null,
        ai_mode_position: null,
        maps_position: null,
        source: 'history',
      },
      {
        project_id: Q,
        keyword_id: `kw-${i}`,
        keyword: k,
        check_date: END,
        desktop_position: 5 + i,
        mobile_position: null,
        ai_mode_position: null,
        maps_position: null,
        source: 'history',
      },
    ]),
    'rankings.list': keywords.map((k, i) => ({
      project_id: Q,
      snapshot_date: END,
      id: `kw-${i}`,
      keyword: k,
      desktop_position: 5 + i,
      mobile_position: null,
      ai_mode_position: null,
      maps_position: null,
      net_change: null,
      location: H[100 + i],
    })),
    'prompts.history': H.slice(200, 203).flatMap((model, m) =>
      Array.from({ length: 14 }, (_, d) => ({
        project_id: Q,
        prompt_id: 'p',
        model,
        checked_at: `${addDays(END, -d)}T10:00:00Z`,
        prompt: H[300],
        is_visible: (d + m) % 2 === 0,
        position: 1,
        citations_count: 0,
        citations: [],
      })),
    ),
    'backlinks.summary': [{ project_id: Q, snapshot_date: END, total_referring_domains: H.length }],
    'backlinks.history': [
      {
        project_id: Q,
        check_date: END,
        new_referring_domains: H.length,
        lost_referring_domains: 0,
        net_domains_change: H.length,
        new_backlinks: 1,
        lost_backlinks: 0,
      },
    ],
    'backlinks.domains': H.map((domain, i) => ({
      project_id: Q,
      domain,
      first_seen: addDays(END, -(i % 20)),
      domain_rank: i,
      backlinks: 1,
    })),
    'audits.list': [
      { project_id: Q, id: 'old', status: 'completed', completed_at: '2026-02-01T00:00:00Z' },
      { project_id: Q, id: 'new', status: 'completed', completed_at: '2026-03-01T00:00:00Z' },
    ],
    'audits.issues': H.map((text, i) => ({
      project_id: Q,
      audit_id: 'new',
      id: `i${i}`,
      type: text,
      severity: 'critical',
      title: H[(i + 1) % H.length],
      description: '',
      affected_count: i,
      status: 'failed',
      created_at: '2026-03-01T00:00:00Z',
    })),
  };
}

let browser: Browser;

/** Writes the report of an account to a file. */
async function writeReportOf(data: Partial<Record<DatasetName, Row[]>>, name: string, days: number): Promise<string> {
  const source = await inProcessSource(data);
  try {
    const html = reportHtml(
      await gatherReport(source, { days }),
      await chartRenderer(),
      new Date('2026-03-15T00:00:00Z'),
    );
    // Kept in artifacts/report/ (gitignored) beside the screenshots, to open by hand.
    const file = join(ARTIFACTS, name);
    writeFileSync(file, html);
    return file;
  } finally {
    await source.close();
  }
}

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

describe('the report in Chromium', () => {
  it('no console message, no request but the file; every chart line has a visible, whole legend entry (screenshot kept)', async () => {
    const file = await writeReportOf(REPORT_FIXTURE, 'report-fixture.html', 7);
    const { page, problems } = await openWatched(browser, file);
    try {
      await page.screenshot({ path: join(ARTIFACTS, 'report-fixture.png'), fullPage: true });
      expect(problems).toEqual([]);
      const figures = await page.locator('figure').all();
      expect(figures.length).toBe(5);
      for (const figure of figures) {
        const items = await figure.locator('ul.legend li').all();
        expect(items.length).toBeGreaterThan(0);
        // Each line of the chart is drawn in its own colour, as something with an extent (a line, or
        // dots where a value has no neighbour); the legend has one entry per colour.
        const drawn = await figure.locator('svg path').evaluateAll((paths) => [
          ...new Set(
            paths
              .filter((p) => {
                const box = (p as SVGGraphicsElement).getBBox();
                return box.width > 0 || box.height > 0;
              })
              .flatMap((p) => [p.getAttribute('stroke'), p.getAttribute('fill')]),
          ),
        ]);
        const swatches = await figure
          .locator('ul.legend line')
          .evaluateAll((lines) => lines.map((l) => l.getAttribute('stroke')));
        expect(new Set(swatches).size).toBe(items.length);
        for (const colour of swatches)
          expect(drawn, `a line of colour ${colour} in "${await figure.locator('ul.legend').textContent()}"`).toContain(
            colour,
          );
        for (const item of items) {
          expect(await item.isVisible()).toBe(true);
          const whole = await item.evaluate(
            (li) =>
              li.scrollWidth <= li.clientWidth + 1 &&
              li.getBoundingClientRect().right <= document.documentElement.clientWidth,
          );
          expect(whole).toBe(true);
        }
      }
      // The two coffee lines of the "Samples" project are told apart by location.
      const legends = await page.locator('ul.legend').allInnerTexts();
      expect(legends.join('\n')).toContain('affordable single origin coffee (Boston, MA)');
      expect(legends.join('\n')).toContain('affordable single origin coffee (Denver, CO)');
    } finally {
      await page.close();
    }
  }, 120_000);

  it(`${H.length.toLocaleString('en-US')} hostile strings as keywords, locations, models, domains and audit issues: shown as text, none runs or fetches`, async () => {
    expect(H.length).toBeGreaterThan(3000);
    const file = await writeReportOf(hostileAccount(), 'hostile.html', 28);
    const { page, problems } = await openWatched(browser, file);
    try {
      // Give an autofocus, animation or timer payload its chance to run.
      await page.waitForTimeout(500);
      await page.screenshot({ path: join(ARTIFACTS, 'report-hostile.png') });
      expect(problems).toEqual([]);
      const dom = await page.evaluate(() => ({
        pwned: (window as unknown as { __pwned?: unknown }).__pwned,
        active: [
          ...document.querySelectorAll(
            'script, iframe, object, embed, img, link, meta[http-equiv], base, form, input, video, audio, template, noscript, foreignObject, animate, set, image',
          ),
        ].length,
        // The page's own style sheet, plus ECharts' inside each chart's SVG: none with a word of the API's.
        styles: [...document.querySelectorAll('style')].filter((e) => e.closest('svg') === null).length,
        tainted: [...document.querySelectorAll('style')].filter((e) => /pwned/.test(e.textContent ?? '')).length,
        handlers: [...document.querySelectorAll('*')].filter((e) =>
          [...e.attributes].some((a) => a.name.toLowerCase().startsWith('on')),
        ).length,
        links: [...document.querySelectorAll('[href], [src], [action]')].length,
        rows: document.querySelectorAll('section table tbody tr').length,
        legend: [...document.querySelectorAll('ul.legend li')].map((li) => li.textContent),
      }));
      expect(dom).toMatchObject({ pwned: undefined, active: 0, styles: 1, tainted: 0, handlers: 0, links: 0 });
      // Every hostile domain and issue is a row of its own, its text intact.
      expect(dom.rows).toBeGreaterThanOrEqual(2 * H.length);
      // As the HTML parser reads text: a NUL in body text is dropped, CR LF is LF.
      const readable = (s: string) => s.replace(/\u0000/g, '').replace(/\r\n?/g, '\n');
      for (const model of H.slice(200, 203)) expect(dom.legend).toContain(readable(model));
      const cells = await page.locator('section table tbody tr td:first-child').allTextContents();
      const shown = new Set(cells);
      const missing = H.filter((h) => !shown.has(readable(h)));
      expect(missing.map((m) => JSON.stringify(m))).toEqual([]);
    } finally {
      await page.close();
    }
  }, 180_000);
});
