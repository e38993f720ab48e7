/**
 * Every fault category, over a real socket, each in a process of its own: the calls end in exactly
 * the expected data or typed error, the server sees exactly the expected requests, and the process
 * then exits on its own with no unhandled rejection (no dangling timer, socket or promise).
 * The scenarios live in support/scenarios; this file runs them and records their rows.
 */
import { describe, test } from 'vitest';
import { runChild } from './support/run-child.js';
import { type Row, useReport } from './support/report.js';
import { SCENARIOS } from './support/scenarios/index.js';

const report = useReport('faults');

describe.concurrent('fault scenarios, each in a child process over loopback HTTP', () => {
  test.each(Object.keys(SCENARIOS))('%s', async (name) => {
    const result = await runChild(name);
    const ended = result.exitedOnItsOwn
      ? `exited on its own, code ${result.code}`
      : `still running at the deadline (open: ${result.active.join(', ')})`;
    const process: Row = {
      area: 'Process: exits on its own after the faults',
      input: `${name} scenarios (${result.rows.length} rows)`,
      cases: result.rows.length,
      expected: 'exited on its own, code 0, no unhandled rejection or exception',
      observed: `${ended}, ${result.problems.length === 0 ? 'no unhandled rejection or exception' : result.problems.join('; ')}${result.stderr.trim() ? `; stderr: ${result.stderr.trim().slice(0, 300)}` : ''}`,
      serverSaw: 'see the rows of the category',
    };
    report.checkAll([...result.rows, process]);
  });
});
