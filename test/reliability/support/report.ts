/**
 * The reliability report's rows: every test records what it tried and what happened as a row, and
 * each test file, when it finishes, stores its rows in `artifacts/reliability/` (gitignored). The
 * tests never touch a tracked file: `npm run reliability:report` runs the suite and then renders
 * docs/reliability.md from those rows (scripts/reliability-report.ts). Rows carry no timestamps or
 * durations, so a re-run with the same settings renders the same table.
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect } from 'vitest';
import { ROWS_DIR, type Row, type StoredRows } from './rows.js';
import { RUNS, SEED } from './runs.js';

export { holds, type Row } from './rows.js';

/**
 * Registers the file's collector. `check(row)` and `checkAll(rows)` record rows and assert they
 * hold, so the table and the test verdict can never disagree. Pass a property's failure (from
 * `failureOf`) to record the rows first and then fail with its counterexample.
 */
export function useReport(file: string): {
  check(row: Row, failure?: unknown): void;
  checkAll(rows: Row[], failure?: unknown): void;
} {
  const rows: Row[] = [];
  afterAll(() => {
    mkdirSync(ROWS_DIR, { recursive: true });
    const stored: StoredRows = { runs: RUNS, seed: SEED, rows };
    writeAtomic(join(ROWS_DIR, `${file}.json`), JSON.stringify(stored));
  });
  const checkAll = (batch: Row[], failure?: unknown) => {
    rows.push(...batch);
    // A property that failed is reported with fast-check's counterexample, after its rows are kept.
    if (failure !== undefined) throw failure;
    // All rows are recorded before any is asserted, so the table shows every failing row.
    const seen = batch.map((r) => ({ input: r.input, observed: r.observed, server: r.serverSaw }));
    const wanted = batch.map((r) => ({
      input: r.input,
      observed: r.expected,
      server: r.expectedServer ?? r.serverSaw,
    }));
    expect(seen).toEqual(wanted);
  };
  return { check: (row, failure) => checkAll([row], failure), checkAll };
}

function writeAtomic(path: string, text: string): void {
  const tmp = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, path);
}
