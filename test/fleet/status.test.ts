import { describe, expect, it } from 'vitest';
import type { JobWithMetadata } from 'pg-boss';
import { type AccountStatus, stateWords, statusOf } from '../../src/fleet/status.js';
import type { SyncJobData } from '../../src/fleet/queue.js';
import type { AccountRun } from '../../src/fleet/run-account.js';

const NOW = Date.UTC(2026, 5, 10, 12, 0, 0);
const run = (over: Partial<AccountRun>): AccountRun => ({
  status: 'completed',
  requests: 10,
  rows: 100,
  startedAt: '2026-06-10T11:00:00.000Z',
  endedAt: '2026-06-10T11:05:00.000Z',
  dayWindowMs: 86_400_000,
  ...over,
});
let seq = 0;
const job = (account: string, state: JobWithMetadata['state'], output?: object, startAfter = NOW - 60_000) =>
  ({
    id: `job-${++seq}`,
    data: { account },
    state,
    output,
    startAfter: new Date(startAfter),
  }) as unknown as JobWithMetadata<SyncJobData>;

describe('statusOf', () => {
  it('reads each account from its latest job, and its last run from the latest job that ended', () => {
    const stopped = run({ status: 'stopped', reason: 'daily_budget', resumesAt: '2026-06-11T00:00:01.000Z' });
    const failed = run({
      status: 'failed',
      reason: 'key_refused',
      error: { name: 'UnauthorizedError', message: 'Invalid API key', status: 401 },
    });
    const status = statusOf(
      ['acme', 'globex', 'initech', 'hooli', 'stark', 'never'],
      [
        job('acme', 'completed', run({ requests: 5 })),
        job('acme', 'active'),
        job('globex', 'completed', stopped),
        job('globex', 'created', undefined, Date.UTC(2026, 5, 11, 0, 0, 1)),
        job('initech', 'failed', failed),
        // A run that threw: pg-boss keeps the error, which carries the run.
        job('hooli', 'retry', {
          name: 'InternalServerError',
          message: 'boom',
          run: run({ status: 'failed', error: { name: 'InternalServerError', message: 'boom', status: 500 } }),
        }),
        job('stark', 'created'),
        job('someone-else', 'completed', run({})),
      ],
      NOW,
    );
    const by = Object.fromEntries(status.map((s) => [s.account, s]));
    expect(by['acme']).toMatchObject({
      state: 'running',
      lastRun: { requests: 5 },
      nextBudgetReset: '2026-06-11T00:00:00.000Z',
    });
    expect(by['globex']).toMatchObject({
      state: 'stopped',
      resumesAt: '2026-06-11T00:00:01.000Z',
      lastRun: { reason: 'daily_budget' },
    });
    expect(stateWords(by['globex'] as AccountStatus)).toBe('stopped, resumes at 2026-06-11 00:00:01 UTC');
    expect(by['initech']).toMatchObject({ state: 'failed', lastRun: { reason: 'key_refused' } });
    expect(stateWords(by['initech'] as AccountStatus)).toBe('failed: Invalid API key');
    expect(by['hooli']).toMatchObject({ state: 'retrying', lastRun: { status: 'failed', error: { status: 500 } } });
    expect(by['stark']).toEqual({ account: 'stark', state: 'queued' });
    expect(by['never']).toEqual({ account: 'never', state: 'never run' });
    // An account the queue knows but the configuration does not is not this fleet's: not shown.
    expect(by['someone-else']).toBeUndefined();
  });
});
