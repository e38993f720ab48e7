/**
 * The rows of the reliability report, shared by the tests that record them (report.ts) and the
 * script that renders docs/reliability.md from them (scripts/reliability-report.ts). No vitest
 * import here: the script runs outside the test runner.
 */
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** One fault or input class, as tried. */
export interface Row {
  /** Group in the table, e.g. `Faults: rate limit`. */
  area: string;
  /** The fault or input class, e.g. `429 with a reset 1 s away (GET)`. */
  input: string;
  /** How many cases (requests, generated inputs, runs × items) it covered. */
  cases: number;
  /** What must happen. */
  expected: string;
  /** What did happen, computed from the run. */
  observed: string;
  /** What the server must have seen (omitted: whatever it saw is reported, not checked). */
  expectedServer?: string | undefined;
  /** What the server saw, computed from its request log. */
  serverSaw: string;
}

/** What one test file stores: its rows and the fuzzing mode they were produced in. */
export interface StoredRows {
  runs: number;
  seed: number;
  rows: Row[];
}

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
/** Where each test file's rows are kept between the run and the render (gitignored). */
export const ROWS_DIR = join(ROOT, 'artifacts/reliability');

/** Whether a row holds: the outcome, and the server's view where one is expected. */
export const holds = (row: Row): boolean =>
  row.observed === row.expected && (row.expectedServer === undefined || row.expectedServer === row.serverSaw);
