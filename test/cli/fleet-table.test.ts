import { describe, expect, it } from 'vitest';
import { statusTable } from '../../src/cli/fleet-table.js';
import type { AccountStatus } from '../../src/fleet/index.js';

const LONG = `Rate limit exceeded upstream; ${'the gateway said more than anyone reads on one line, '.repeat(3)}end of message.`;
const status: AccountStatus[] = [
  {
    account: 'acme',
    state: 'completed',
    lastRun: {
      status: 'completed',
      requests: 1154,
      rows: 108222,
      startedAt: '2026-06-10T03:00:00.000Z',
      endedAt: '2026-06-10T03:12:40.512Z',
      dayWindowMs: 86_400_000,
    },
  },
  {
    account: 'initech',
    state: 'failed',
    lastRun: {
      status: 'failed',
      requests: 0,
      rows: 0,
      startedAt: '2026-06-10T03:01:00.000Z',
      endedAt: '2026-06-10T03:01:02.000Z',
      dayWindowMs: 86_400_000,
      error: { name: 'InternalServerError', message: LONG, status: 500 },
    },
  },
];

describe('fleet status table: a long failure text', () => {
  it('is cut to the width given (the terminal’s), saying that --json prints it whole', () => {
    const text = statusTable(status, 80);
    for (const line of text.trimEnd().split('\n')) expect(line.length, line).toBeLessThanOrEqual(80);
    expect(text).toMatch(/^initech +failed: Rate limit\S* .*… +2026-06-10 03:01:02 +0 +0$/m);
    expect(text).toContain('--json');
  });

  it('is printed whole when it fits, with no note', () => {
    const short = statusTable(status.slice(0, 1), 80);
    expect(short).toMatch(/^acme +completed +2026-06-10 03:12:40 +1,154 +108,222$/m);
    expect(short).not.toContain('--json');
  });

  it('with no width (not a terminal, no COLUMNS), nothing is cut', () => {
    expect(statusTable(status, undefined)).toContain(LONG);
  });
});
