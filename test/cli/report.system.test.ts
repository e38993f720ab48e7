import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../helpers/chromium.js';
import { type TestPostgres, startPostgres } from '../helpers/postgres-server.js';
import { root, syncIntoPostgres, syncedAccount } from '../insights/support.js';
import { bundleCli } from './support.js';
import type { Account } from '../sync/support/account.js';

// `seo-visibility report` over the simulator's synced account: the file it writes, that file in
// real headless Chromium (no console error, no request but the file itself; a screenshot is kept
// in artifacts/report/, gitignored), the same report from PostgreSQL, and --alert's exit code.
const ARTIFACTS = join(root, 'artifacts', 'report');

let account: Account;
let file: string;
let postgres: TestPostgres;
/** The CLI bundled once, run as the built bin is: through tsx, each run was two Node processes transforming the sources again (35 s a run at a load of 26 on 2 cores, past the test's bound). */
let cli: string;

beforeAll(async () => {
  [{ account, file }, cli] = await Promise.all([syncedAccount(), bundleCli()]);
  mkdirSync(ARTIFACTS, { recursive: true });
}, 120_000);

afterAll(async () => {
  await postgres?.stop();
  await account?.close();
});

function report(args: string[]) {
  return spawnSync(process.execPath, [cli, 'report', ...args], { encoding: 'utf8', cwd: root, timeout: 120_000 });
}

/** The report without the line that says when it was generated. */
const timeless = (html: string) => html.replace(/generated [^<]* UTC/, 'generated (time)');

describe('seo-visibility report', () => {
  const out = join(ARTIFACTS, 'report.html');

  it('writes one self-contained HTML file: summary, charts as inline SVG, tables, nothing to fetch', () => {
    const run = report(['--db', file, '--out', out]);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(
      /Report of 4 project\(s\) of the account synced into .* over 28 days written to .*report\.html/,
    );
    const html = readFileSync(out, 'utf8');
    // url(#…) are the SVGs' own clip paths; nothing else may point anywhere.
    expect(html).not.toMatch(/<script|<link|<img|<iframe|@import|url\((?!#)/i);
    expect(html).not.toMatch(/(src|href)=/i);
    expect(html.match(/<section>/g)).toHaveLength(4);
    expect(html.match(/<svg /g)?.length).toBeGreaterThanOrEqual(8);
    expect(html).toMatch(/keywords? improved and \d+ declined on desktop/);
    for (const heading of [
      'Biggest movers (desktop)',
      'Top-10 entries',
      'Top-10 exits',
      'Referring domains lost',
      'New critical audit issues',
      'AI visibility by model',
    ])
      expect(html).toContain(heading);
  });

  it('renders in headless Chromium with no console error and no network request (screenshot kept)', async () => {
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: { width: 1000, height: 1400 } });
      const problems: string[] = [];
      const url = pathToFileURL(out).href;
      page.on('console', (m) => {
        if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`);
      });
      page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
      page.on('request', (r) => {
        if (r.url() !== url) problems.push(`request ${r.url()}`);
      });
      await page.goto(url);
      await page.screenshot({ path: join(ARTIFACTS, 'report.png'), fullPage: true });
      expect(problems).toEqual([]);
      expect(await page.locator('section h2').count()).toBe(4);
      // Each chart drew its lines (ECharts paths), not an empty frame.
      expect(await page.locator('figure svg path').count()).toBeGreaterThan(50);
      const box = await page.locator('figure svg').first().boundingBox();
      expect(box?.width).toBeGreaterThan(600);
    } finally {
      await browser.close();
    }
  }, 60_000);

  it('--postgres writes the same report from the same account synced there', async () => {
    postgres = await startPostgres();
    await syncIntoPostgres(account, postgres.url);
    const fromPostgres = join(ARTIFACTS, 'report-postgres.html');
    const run = report(['--postgres', postgres.url, '--out', fromPostgres]);
    expect(run.status, run.stderr).toBe(0);
    expect(timeless(readFileSync(fromPostgres, 'utf8'))).toBe(timeless(readFileSync(out, 'utf8')));
  }, 120_000);

  it("--alert 'rank_drop>=N' exits 3 and prints exactly the rows of rank_changes over the threshold", () => {
    const db = new DatabaseSync(file, { readOnly: true });
    const drops = db
      .prepare('SELECT keyword, device, change FROM rank_changes WHERE period_days = 28 AND change >= 5')
      .all();
    db.close();
    expect(drops.length).toBeGreaterThan(0);
    const run = report(['--db', file, '--out', join(ARTIFACTS, 'alert.html'), '--alert', 'rank_drop>=5']);
    expect(run.status).toBe(3);
    expect(run.stdout).toContain(`ALERT rank_drop>=5: ${drops.length} row(s)`);
    // Each line names the keyword's location, where known: "coffee beans (Boston, MA) (mobile):".
    const literal = (t: unknown) => String(t).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    for (const d of drops)
      expect(run.stdout).toMatch(new RegExp(`${literal(d['keyword'])}( \\([^)]*\\))? \\(${literal(d['device'])}\\):`));
    const quiet = report(['--db', file, '--out', join(ARTIFACTS, 'alert.html'), '--alert', 'rank_drop>=1000']);
    expect(quiet.status).toBe(0);
    expect(quiet.stdout).not.toContain('ALERT');
  }, 60_000);

  it('a bad threshold, an unknown option or a missing folder is a usage error (exit 2), naming what is allowed', () => {
    const typo = report(['--db', file, '--out', join(ARTIFACTS, 'x.html'), '--alert', 'rank_dorp>=5']);
    expect(typo.status).toBe(2);
    expect(typo.stderr).toMatch(/unknown metric rank_dorp; did you mean rank_drop\?/);
    const shape = report(['--db', file, '--out', join(ARTIFACTS, 'x.html'), '--alert', 'rank_drop']);
    expect(shape.status).toBe(2);
    expect(shape.stderr).toMatch(/expected <metric><op><number>, e.g. rank_drop>=5/);
    const folder = report(['--db', file, '--out', join(ARTIFACTS, 'no-such-folder', 'x.html')]);
    expect(folder.status).toBe(2);
    expect(folder.stderr).toMatch(/the folder .*no-such-folder does not exist/);
    expect(report(['--db', file, '--out', 'x.html', '--dayz', '7']).status).toBe(2);
    const unknown = report([
      '--db',
      file,
      '--out',
      join(ARTIFACTS, 'x.html'),
      '--project',
      '00000000-0000-4000-8000-000000000000',
    ]);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(/--project 0{8}-0{4}-4000-8000-0{12}: the store holds no such project/);
    expect(existsSync(join(ARTIFACTS, 'x.html'))).toBe(false);
  }, 60_000);
});
