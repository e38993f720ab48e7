import { describe, expect, it } from 'vitest';
import * as fleetEntry from '../../src/fleet/index.js';
import type { AccountStatus } from '../../src/fleet/index.js';

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
    nextBudgetReset: '2026-06-11T00:00:00.000Z',
  },
  {
    account: 'globex',
    state: 'stopped',
    resumesAt: '2026-06-11T00:00:01.000Z',
    lastRun: {
      status: 'stopped',
      reason: 'daily_budget',
      requests: 48000,
      rows: 612330,
      startedAt: '2026-06-10T13:00:00.000Z',
      endedAt: '2026-06-10T14:03:10.000Z',
      resumesAt: '2026-06-11T00:00:01.000Z',
      dayWindowMs: 86_400_000,
    },
  },
  {
    account: 'initech',
    state: 'failed',
    lastRun: {
      status: 'failed',
      reason: 'key_refused',
      requests: 0,
      rows: 0,
      startedAt: '2026-06-10T03:01:00.000Z',
      endedAt: '2026-06-10T03:01:02.000Z',
      dayWindowMs: 86_400_000,
      error: { name: 'UnauthorizedError', message: 'Invalid API key', status: 401 },
    },
  },
  { account: 'hooli', state: 'never run' },
];

describe('statusRows: fleet.status() as a flat table', () => {
  it('console.table(statusRows(await fleet.status())) shows values, never [Object]: every cell is a string or a number', () => {
    const rows = fleetEntry.statusRows(status);
    for (const row of rows)
      for (const value of Object.values(row)) expect(['string', 'number']).toContain(typeof value);
    expect(rows).toEqual([
      {
        account: 'acme',
        state: 'completed',
        lastRunEnded: '2026-06-10 03:12:40',
        requests: 1154,
        rows: 108222,
        resumesAt: '',
        nextBudgetReset: '2026-06-11 00:00:00',
        error: '',
      },
      {
        account: 'globex',
        state: 'stopped',
        lastRunEnded: '2026-06-10 14:03:10',
        requests: 48000,
        rows: 612330,
        resumesAt: '2026-06-11 00:00:01',
        nextBudgetReset: '',
        error: '',
      },
      {
        account: 'initech',
        state: 'failed',
        lastRunEnded: '2026-06-10 03:01:02',
        requests: 0,
        rows: 0,
        resumesAt: '',
        nextBudgetReset: '',
        error: 'UnauthorizedError (401): Invalid API key',
      },
      {
        account: 'hooli',
        state: 'never run',
        lastRunEnded: '',
        requests: '',
        rows: '',
        resumesAt: '',
        nextBudgetReset: '',
        error: '',
      },
    ]);
  });
});
