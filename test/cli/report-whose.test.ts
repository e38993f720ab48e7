/**
 * Issue 23 §1 "the report says whose account it is": the line `report` prints says it too, not only
 * the HTML file (a cron job's log, or a script looping over accounts, reads that line). A fleet
 * warehouse in SQLite, in memory, stands in for the PostgreSQL schema (test/insights/fleet-store.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { buildProgram } from '../../src/cli/program.js';
import type { InsightSource } from '../../src/insights/source.js';
import { fleetDb, inProcessSource } from '../insights/fleet-store.js';
import { useReport } from '../reliability/support/report.js';

const report = useReport('attack23-report-whose');
let source: InsightSource;
let opened: { timeoutMs?: number } | undefined;
vi.mock('../../src/insights/open-source.js', () => ({
  openSource: async (options: { timeoutMs?: number }) => {
    opened = options;
    return source;
  },
}));

const dir = mkdtempSync(join(tmpdir(), 'report-whose-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function stdoutOf(args: string[]): Promise<string> {
  let out = '';
  const stream = (write: (s: string) => void) =>
    ({ write: (s: string) => (write(s), true), isTTY: false }) as unknown as NodeJS.WriteStream;
  await buildProgram({
    out: stream((s) => (out += s)),
    err: stream(() => {}),
    signal: new AbortController().signal,
    setExit: () => {},
  }).parseAsync(['node', 'seo-visibility', 'report', '--db', 'x.db', '--days', '7', ...args]);
  return out;
}

describe('report: the line on stdout says whose account the file covers', () => {
  it.each([
    [['acme', 'globex'], ['--account', 'globex'], /of account globex over 7 days written to/],
    [['acme', 'globex'], [], /of 2 accounts \(acme, globex\) over 7 days written to/],
  ])('a fleet warehouse of %j, report %j', async (accounts, args, line) => {
    source = inProcessSource(fleetDb(accounts));
    const out = await stdoutOf([...args, '--out', join(dir, 'r.html')]);
    report.check({
      area: 'report (session 4): whose account',
      input: `report ${args.join(' ') || '(every account)'} over accounts ${accounts.join(', ')}`,
      cases: 1,
      expected: 'the stdout line names the account(s)',
      observed: line.test(out) ? 'the stdout line names the account(s)' : out.trim(),
      serverSaw: '-',
    });
  });
});

describe('report --timeout: the time limit of one query, as mcp has', () => {
  it('reaches the store (default 5 minutes), and a given one replaces it', async () => {
    source = inProcessSource(fleetDb(['acme']));
    await stdoutOf(['--out', join(dir, 'r.html')]);
    expect(opened?.timeoutMs).toBe(300_000);
    await stdoutOf(['--timeout', '1500', '--out', join(dir, 'r.html')]);
    expect(opened?.timeoutMs).toBe(1500);
  });
});
