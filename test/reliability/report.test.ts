/**
 * Issue 23 §2 and §5, the report side: figures that say how sure they are, and a report file and
 * alert output an API's text or a shared folder cannot subvert. Each row is one attack or misreading
 * of that issue, tried again over a hand-made store read in this process (no server: "server saw"
 * is what the store held).
 */
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { terminalText } from '../../src/cli/terminal-text.js';
import { checkAlerts, parseAlert } from '../../src/insights/report-alerts.js';
import { writeReport } from '../../src/insights/report.js';
import type { InsightSource } from '../../src/insights/source.js';
import { wilson } from '../../src/insights/wilson.js';
import { inProcessSource } from '../insights/in-process-source.js';
import { REPORT_FIXTURE, S } from '../insights/report-fixture.js';
import { useReport } from './support/report.js';

const report = useReport('report');
const STORE = 'hand-made store: 1 answer a day (sonar), 10 a day (gpt-5), one keyword in 2 locations';
const UNSAFE = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
let source: InsightSource;
let dir: string;

beforeAll(async () => {
  const hostile = structuredClone(REPORT_FIXTURE);
  for (const row of hostile['rankings.list'] ?? [])
    if (row['project_id'] === S) row['location'] = `${row['location']}\x1b]0;pwned\x07\u202e`;
  source = await inProcessSource(hostile);
  dir = mkdtempSync(join(tmpdir(), 'sv-reliability-report-'));
}, 60_000);

afterAll(async () => {
  await source?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('numbers that are true', () => {
  test('Wilson intervals match the published ones', () => {
    const cases: Array<[number, number, string]> = [
      [81, 263, '0.2553–0.3662'],
      [15, 148, '0.0624–0.1605'],
      [0, 20, '0.0000–0.1611'],
      [1, 29, '0.0061–0.1718'],
    ];
    report.check({
      area: 'Report: how sure a figure is',
      input: '95% Wilson intervals of 81/263, 15/148, 0/20, 1/29 (Newcombe 1998, table I)',
      cases: cases.length,
      expected: cases.map((c) => c[2]).join(', '),
      observed: cases
        .map(([hits, n]) => wilson({ hits, n }))
        .map((i) => `${i.low.toFixed(4)}–${i.high.toFixed(4)}`)
        .join(', '),
      serverSaw: 'no server',
    });
  });

  test('visibility_drop does not fire on sampling noise, and fires on a real drop', async () => {
    const [alerts] = await checkAlerts(source, [parseAlert('visibility_drop>=10')], { project: S, days: 7 });
    report.check({
      area: 'Report: how sure a figure is',
      input:
        'visibility_drop>=10: sonar 4 of 7 → 1 of 7 answers (−42.9 points, z −1.67); gpt-5 42 of 70 → 14 of 70 (−40.0, z −4.83)',
      cases: 2,
      expected: 'openai/gpt-5',
      observed: (alerts?.lines ?? []).map((l) => l.split(':')[0]).join(', ') || 'no alert',
      serverSaw: STORE,
    });
  });
});

describe('report hygiene', () => {
  test('a keyword in two locations is two alert lines that say where, with the text made terminal-safe', async () => {
    const [alerts] = await checkAlerts(source, [parseAlert('rank_drop>=-100')], { project: S, days: 7 });
    const printed = (alerts?.lines ?? []).map((l) => terminalText(l, { oneLine: true }));
    report.check({
      area: 'Report: alerts on a terminal',
      input:
        'rank_drop alerts for "affordable single origin coffee" in Boston and Denver, the locations holding OSC and RLO',
      cases: printed.length,
      expected: '2 lines, (Boston, MA) and (Denver, CO), no control character',
      observed: `${printed.length} lines, ${printed.map((l) => /\((Boston, MA|Denver, CO)/.exec(l)?.[0]?.concat(')') ?? 'no location').join(' and ')}, ${printed.some((l) => UNSAFE.test(l)) ? 'control characters printed' : 'no control character'}`,
      serverSaw: STORE,
    });
  });

  test("a symlink planted at the report's old temporary name is not followed", async () => {
    const victim = join(dir, 'deploy.sh');
    writeFileSync(victim, '#!/bin/sh\n');
    const out = join(dir, 'report.html');
    symlinkSync(victim, `${out}.${process.pid}.partial`);
    await writeReport(source, { out, days: 7, alerts: [] });
    report.check({
      area: 'Report: the output file',
      input: 'report --out report.html with a symlink report.html.<pid>.partial → deploy.sh in the folder',
      cases: 1,
      expected: 'deploy.sh unchanged, report.html written',
      observed: `${readFileSync(victim, 'utf8') === '#!/bin/sh\n' ? 'deploy.sh unchanged' : 'deploy.sh overwritten'}, ${readFileSync(out, 'utf8').startsWith('<!doctype html>') ? 'report.html written' : 'report.html missing'}`,
      serverSaw: STORE,
    });
  });
});
