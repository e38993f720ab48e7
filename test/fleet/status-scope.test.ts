import type { JobWithMetadata } from 'pg-boss';
import { describe, expect, it } from 'vitest';
import type { SyncJobData } from '../../src/fleet/queue.js';
import type { AccountRun } from '../../src/fleet/run-account.js';
import { statusOf } from '../../src/fleet/status.js';

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
const job = (account: string, state: JobWithMetadata['state'], output?: object, extra: object = {}) =>
  ({
    id: `job-${++seq}`,
    data: { account },
    state,
    output,
    startAfter: new Date(NOW - 60_000),
    ...extra,
  }) as unknown as JobWithMetadata<SyncJobData>;

describe('statusOf: only this fleet’s accounts', () => {
  it('an account removed from the configuration is not listed, however its last job ended', () => {
    const failed = run({
      status: 'failed',
      reason: 'key_refused',
      error: { name: 'UnauthorizedError', message: 'Invalid API key', status: 401 },
    });
    const status = statusOf(
      ['acme'],
      [job('acme', 'completed', run({})), job('removed', 'failed', failed), job('removed', 'retry')],
      NOW,
    );
    expect(status.map((s) => [s.account, s.state])).toEqual([['acme', 'completed']]);
  });

  it('with accounts given as a function (not listable), every account the queue has seen is listed', () => {
    const status = statusOf(undefined, [job('acme', 'completed', run({})), job('globex', 'active')], NOW);
    expect(status.map((s) => [s.account, s.state])).toEqual([
      ['acme', 'completed'],
      ['globex', 'running'],
    ]);
  });
});

describe('statusOf: a failed job that recorded no run', () => {
  it('still shows the error pg-boss kept, as the last run (a job that expired, or one failed by an older worker)', () => {
    const ended = new Date(NOW - 30_000);
    const status = statusOf(
      ['acme'],
      [
        job(
          'acme',
          'failed',
          { name: 'InvalidArgumentError', message: 'Invalid apiKey: the key contains whitespace' },
          { startedOn: new Date(NOW - 40_000), completedOn: ended },
        ),
      ],
      NOW,
    );
    expect(status[0]).toMatchObject({
      account: 'acme',
      state: 'failed',
      lastRun: {
        status: 'failed',
        requests: 0,
        rows: 0,
        endedAt: ended.toISOString(),
        error: { name: 'InvalidArgumentError', message: 'Invalid apiKey: the key contains whitespace' },
      },
    });
  });
});
