import type { JobWithMetadata } from 'pg-boss';
import { describe, expect, it } from 'vitest';
import { Accounts } from '../../src/fleet/accounts.js';
import type { FleetQueue, SyncJobData } from '../../src/fleet/queue.js';
import { type FleetEvent, type RunContext, runAccountJob } from '../../src/fleet/run-account.js';
import type { SyncStore } from '../../src/sync/index.js';

// runAccountJob on its own, with no queue and no store behind it: the failures below happen
// before either is touched, so a test that reached one would fail on the stand-in, not hang.
const KEY = 'sv_live_0123456789abcdefABCDEF';
const untouched = new Proxy(
  {},
  {
    get: (_, name) => {
      throw new Error(`not expected to be used: ${String(name)}`);
    },
  },
);

function context(accounts: Accounts): { ctx: RunContext; events: FleetEvent[] } {
  const events: FleetEvent[] = [];
  const ctx: RunContext = {
    schema: 'fleet_a',
    accounts,
    queue: untouched as FleetQueue,
    store: () => untouched as SyncStore,
    stopping: new AbortController().signal,
    emit: (e) => events.push(e),
  };
  return { ctx, events };
}
const job = (account: string, schema?: string) =>
  ({
    id: 'job-1',
    data: { account, ...(schema ? { schema } : {}) },
    signal: new AbortController().signal,
  }) as unknown as JobWithMetadata<SyncJobData>;

describe('runAccountJob: a key the client cannot send (a trailing CR/LF from a .env file)', () => {
  it('fails the account at once, not retried, with a reason naming the account and the problem, never the key', async () => {
    const { ctx, events } = context(
      new Accounts({ acme: { apiKey: `${KEY}\r\n`, job: { projects: 'all' } } }, undefined),
    );
    const result = await runAccountJob(ctx, job('acme'));
    // 'deadletter': pg-boss fails the job without a retry.
    expect(result).toMatchObject({
      id: 'job-1',
      status: 'deadletter',
      output: { status: 'failed', error: { name: 'InvalidArgumentError' } },
    });
    const message = (result.output as { error: { message: string } }).error.message;
    expect(message).toContain('accounts.acme.apiKey');
    expect(message).toContain('whitespace, non-ASCII or control characters');
    // The run is recorded for status and the worker's events alike.
    expect(events.map((e) => [e.type, e.account, e.run?.status])).toEqual([
      ['start', 'acme', undefined],
      ['end', 'acme', 'failed'],
    ]);
    expect(JSON.stringify({ result, events })).not.toContain(KEY);
  });
});

describe('runAccountJob: an account this worker does not hold (removed from its accounts file)', () => {
  it('fails at once, not retried for minutes (no retry adds it to the configuration), with the reason recorded', async () => {
    const { ctx, events } = context(new Accounts({ acme: { apiKey: KEY, job: { projects: 'all' } } }, undefined));
    const result = await runAccountJob(ctx, job('removed'));
    expect(result).toMatchObject({ status: 'deadletter', output: { status: 'failed', error: { name: 'FleetError' } } });
    expect(events.at(-1)?.run?.error?.message).toContain("No account 'removed'");
  });
});

describe("runAccountJob: another fleet's job", () => {
  it('is never run: failed at once, naming both schemas, and the account is not even resolved', async () => {
    let resolved = 0;
    const accounts = new Accounts(() => (resolved++, { apiKey: KEY, job: { projects: 'all' } }), undefined);
    const { ctx, events } = context(accounts);
    const result = await runAccountJob(ctx, job('acme', 'fleet_b'));
    expect(result).toMatchObject({ status: 'deadletter', output: { status: 'failed', error: { name: 'FleetError' } } });
    expect(events.at(-1)?.run?.error?.message).toContain(
      "belongs to the fleet whose warehouse schema is 'fleet_b', not this one ('fleet_a')",
    );
    expect(resolved).toBe(0);
  });

  it('a job queued before jobs carried their schema is taken as this fleet’s', async () => {
    const { ctx } = context(new Accounts({ acme: { apiKey: `${KEY}\n`, job: { projects: 'all' } } }, undefined));
    // It reaches the account (whose key is then refused), so it was not turned away as another fleet's.
    expect(((await runAccountJob(ctx, job('acme'))).output as { error: { message: string } }).error.message).toContain(
      'accounts.acme.apiKey',
    );
  });
});
