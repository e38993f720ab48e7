/**
 * Issue 23 §5, the command line of `seo-visibility report`, in this process: the store is read
 * in-process (test/insights/in-process-source.ts) instead of through the reader's child process.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/program.js';
import { withStoreErrors } from '../../src/cli/store-options.js';
import { InsightError } from '../../src/insights/errors.js';
import type { InsightSource } from '../../src/insights/source.js';
import { fleetDb, inProcessSource as fleetSource } from '../insights/fleet-store.js';
import { inProcessSource } from '../insights/in-process-source.js';
import { useReport } from '../reliability/support/report.js';
import { REPORT_FIXTURE, S } from '../insights/report-fixture.js';

const whose = useReport('attack23-report-whose');

const HOSTILE = 'boots\x1b]0;you have been pwned\x07\x1b[2J\x1b[H \u202eexe.txt\u202c\x9b31m\rDONE';
const UNSAFE = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

let source: InsightSource & { file: string };
/** The store a test reads instead of `source` (a fleet warehouse), and the options the command opened it with. */
let instead: InsightSource | undefined;
let opened: { timeoutMs?: number } | undefined;
/** The store the command opens, in this process (a module mock would leak: files share a worker's modules). */
const openInProcess = async (options: { timeoutMs?: number | undefined }) => {
  opened = options;
  return instead ?? { ...source, close: async () => {} };
};

beforeAll(async () => {
  // The fixture with a keyword, a domain and an issue type as a hostile server might send them.
  const hostile = structuredClone(REPORT_FIXTURE);
  for (const row of hostile['rankings.history'] ?? []) if (row['keyword'] === 'boots') row['keyword'] = HOSTILE;
  for (const row of hostile['rankings.list'] ?? [])
    if (row['keyword'] === 'boots') Object.assign(row, { keyword: HOSTILE, location: `Boston\x1b[31m\u2066` });
  for (const row of hostile['audits.issues'] ?? [])
    if (row['type'] === 'server_errors') row['type'] = `server_errors\x1b]8;;http://evil.example\x07click\x1b]8;;\x07`;
  source = await inProcessSource(hostile);
}, 60_000);

afterAll(async () => {
  await source?.close();
});

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const stream = (write: (s: string) => void) =>
    ({ write: (s: string) => (write(s), true), isTTY: false }) as unknown as NodeJS.WriteStream;
  let code = -1;
  try {
    await buildProgram({
      out: stream((s) => (out += s)),
      err: stream((s) => (err += s)),
      signal: new AbortController().signal,
      setExit: (c) => (code = c),
      openSource: openInProcess,
    }).parseAsync(['node', 'seo-visibility', ...args]);
  } catch (error) {
    // --help ends through commander's exitOverride.
    if ((error as { code?: string }).code !== 'commander.helpDisplayed') throw error;
    code = 0;
  }
  return { code, out, err };
}

describe('seo-visibility report, on the terminal', () => {
  it('--alert prints keywords, locations and issue types without a control, escape or bidi character', async () => {
    const out = join(source.file, '..', 'alert.html');
    const { code, out: printed } = await run([
      'report',
      '--db',
      source.file,
      '--out',
      out,
      '--days',
      '7',
      '--alert',
      'rank_drop<=-1',
      '--alert',
      'new_critical>=1',
    ]);
    expect(code).toBe(3);
    expect(printed).toContain('ALERT rank_drop<=-1');
    expect(printed).toContain('exe.txt');
    expect(printed).toContain('ALERT new_critical>=1');
    expect(printed).toContain('server_errors');
    expect(printed).not.toMatch(UNSAFE);
    expect(readFileSync(out, 'utf8')).toContain('<!doctype html>');
  });

  it('--alert visibility_drop fires on the significant drop only; --all-changes also lists the noise', async () => {
    const out = join(source.file, '..', 'alert.html');
    const args = [
      'report',
      '--db',
      source.file,
      '--out',
      out,
      '--project',
      S,
      '--days',
      '7',
      '--alert',
      'visibility_drop>=10',
    ];
    const quiet = await run(args);
    expect(quiet.code).toBe(3);
    expect(quiet.out).toContain('ALERT visibility_drop>=10: 1 row(s)');
    expect(quiet.out).toContain('openai/gpt-5: 60.0% of 70 → 20.0% of 70 answers (−40.0 points, significant at 95%)');
    const all = await run([...args, '--all-changes']);
    expect(all.out).toContain('ALERT visibility_drop>=10: 2 row(s)');
    expect(all.out).toContain(
      'perplexity/sonar: 57.1% of 7 → 14.3% of 7 answers (−42.9 points, not significant at 95%)',
    );
    // Model names are API text, isolated in a <bdi> inside the line (report-bidi.test.ts).
    expect(readFileSync(out, 'utf8').replace(/<\/?bdi>/g, '')).toContain(
      'Changes by model (significant or not): perplexity/sonar −42.9 points (not significant); openai/gpt-5 −40.0 points.',
    );
  });

  it('--help speaks of what report takes: no API key, no --simulator, no dataset', async () => {
    const { out } = await run(['report', '--help']);
    expect(out).toContain('--alert');
    expect(out).toContain('--all-changes');
    expect(out).not.toMatch(/API key|API_KEY|simulator|dataset|BASE_URL|PROXY/i);
    expect(out).toContain('SEO_VISIBILITY_POSTGRES_URL');
  });
});

describe('one cause, one exit code', () => {
  it('a missing optional package (echarts, pg) exits 1, as in sync and fleet, not 2 (bad usage)', async () => {
    let err = '';
    const io = {
      out: process.stdout,
      err: { write: (s: string) => ((err += s), true) } as unknown as NodeJS.WriteStream,
      signal: new AbortController().signal,
      setExit: () => {},
    };
    const code = await withStoreErrors(io, async () => {
      throw new InsightError(
        'missing_peer',
        'seo-visibility report (its charts) needs the optional package "echarts": npm install echarts',
      );
    });
    expect(code).toBe(1);
    expect(err).toContain('npm install echarts');
  });
});

/**
 * Issue 23 §1 "the report says whose account it is": the line `report` prints says it too, not only
 * the HTML file (a cron job's log, or a script looping over accounts, reads that line). A fleet
 * warehouse in SQLite, in memory, stands in for the PostgreSQL schema (test/insights/fleet-store.ts).
 */
describe('report: the line on stdout says whose account the file covers', () => {
  afterEach(() => {
    instead = undefined;
  });

  it.each([
    [['acme', 'globex'], ['--account', 'globex'], /of account globex over 7 days written to/],
    [['acme', 'globex'], [], /of 2 accounts \(acme, globex\) over 7 days written to/],
  ])('a fleet warehouse of %j, report %j', async (accounts, args, line) => {
    instead = fleetSource(fleetDb(accounts));
    const { out } = await run([
      'report',
      '--db',
      'x.db',
      '--days',
      '7',
      ...args,
      '--out',
      join(source.file, '..', 'whose.html'),
    ]);
    whose.check({
      area: 'report (session 4): whose account',
      input: `report ${args.join(' ') || '(every account)'} over accounts ${accounts.join(', ')}`,
      cases: 1,
      expected: 'the stdout line names the account(s)',
      observed: line.test(out) ? 'the stdout line names the account(s)' : out.trim(),
      serverSaw: '-',
    });
  });

  it('a store of one account: the line names the store', async () => {
    const { out } = await run([
      'report',
      '--db',
      source.file,
      '--days',
      '7',
      '--out',
      join(source.file, '..', 'one.html'),
    ]);
    expect(out).toMatch(/of the account synced into .*seo\.db over 7 days written to/);
  });
});

describe('report --timeout: the time limit of one query, as mcp has', () => {
  it('reaches the store (default 5 minutes), and a given one replaces it', async () => {
    const out = join(source.file, '..', 'timeout.html');
    await run(['report', '--db', source.file, '--days', '7', '--out', out]);
    expect(opened?.timeoutMs).toBe(300_000);
    await run(['report', '--db', source.file, '--days', '7', '--timeout', '1500', '--out', out]);
    expect(opened?.timeoutMs).toBe(1500);
  });
});
