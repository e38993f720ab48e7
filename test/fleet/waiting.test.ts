import type { JobWithMetadata } from 'pg-boss';
import { describe, expect, it } from 'vitest';
import { type SyncJobData, queueSettings } from '../../src/fleet/queue.js';
import { waitingNotes } from '../../src/fleet/waiting.js';

// A worker started after another was killed with -9 printed nothing for 36 s: the account was held
// by the dead worker until its heartbeat lapsed. What a worker waits for, it must say.
const NOW = Date.UTC(2026, 5, 10, 12, 0, 0);
const settings = queueSettings(undefined, 'seo_visibility_fleet'); // heartbeat 20 s, check 20 s, retry 10 s
const job = (id: string, account: string, state: JobWithMetadata['state'], extra: object = {}) =>
  ({
    id,
    data: { account },
    state,
    startAfter: new Date(NOW - 60_000),
    startedOn: new Date(NOW - 50_000),
    heartbeatOn: null,
    retryCount: 0,
    ...extra,
  }) as unknown as JobWithMetadata<SyncJobData>;

describe('waitingNotes', () => {
  it('an account another worker holds: when its last heartbeat was, and by when it is handed over should that worker be gone', () => {
    const notes = waitingNotes(
      [job('j1', 'acme', 'active', { heartbeatOn: new Date(NOW - 5_000) })],
      new Set(),
      settings,
      NOW,
    );
    expect(notes).toEqual([
      {
        account: 'acme',
        key: 'j1:active',
        message:
          'held by another worker (last heartbeat 5 s ago). If that worker is gone, its heartbeat lapses after 20 s and it is handed over within 20 s more, retried 10 s later: by 12:00:45 UTC at the latest',
      },
    ]);
  });

  it('the accounts this worker holds, and finished ones, are not waited for', () => {
    expect(
      waitingNotes(
        [job('j1', 'acme', 'active'), job('j2', 'globex', 'completed'), job('j3', 'initech', 'failed')],
        new Set(['j1']),
        settings,
        NOW,
      ),
    ).toEqual([]);
  });

  it('an account waiting for a retry says when it is retried', () => {
    const notes = waitingNotes(
      [job('j4', 'acme', 'retry', { startAfter: new Date(NOW + 8_000), retryCount: 1 })],
      new Set(),
      settings,
      NOW,
    );
    expect(notes).toEqual([
      {
        account: 'acme',
        key: 'j4:retry:1',
        message: 'its last run failed or its worker stopped answering: retried at 12:00:08 UTC (in 8 s)',
      },
    ]);
  });

  it('an account deferred to its budget’s reset says when it resumes; one ready now needs no note', () => {
    const notes = waitingNotes(
      [job('j5', 'acme', 'created', { startAfter: new Date(NOW + 3_600_000) }), job('j6', 'globex', 'created')],
      new Set(),
      settings,
      NOW,
    );
    expect(notes).toEqual([
      { account: 'acme', key: 'j5:created', message: 'queued to resume at 13:00:00 UTC (in 60 min)' },
    ]);
  });
});
