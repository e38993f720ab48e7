/**
 * Issue 22's fleet findings, tried again with generated inputs and no server: a key pasted where
 * its variable's name belongs, a key variable with a trailing CR/LF, an account id written twice,
 * an account removed from the configuration, and a job of another fleet. Each row is one class of
 * input: what must happen, and what did. Nothing here reaches a network: every refusal comes first.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import type { JobWithMetadata } from 'pg-boss';
import { afterAll, describe, test } from 'vitest';
import { readAccountsFile } from '../../src/cli/fleet-accounts.js';
import { Accounts } from '../../src/fleet/accounts.js';
import { type FleetQueue, type SyncJobData, queueSettings } from '../../src/fleet/queue.js';
import type { RunContext } from '../../src/fleet/run-account.js';
import { runAccountJob } from '../../src/fleet/run-account.js';
import { statusOf } from '../../src/fleet/status.js';
import type { SyncStore } from '../../src/sync/index.js';
import { renderings } from './support/kit.js';
import { useReport } from './support/report.js';
import { failureOf, runs } from './support/runs.js';

const report = useReport('fleet');
const dir = mkdtempSync(join(tmpdir(), 'sv-reliability-fleet-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const NO_REQUEST = 'no request (refused before any connection)';

/** Keys of the documented form, `<prefix>live_<random>`, with a prefix the reference does not show. */
const keys = fc
  .tuple(fc.stringMatching(/^[a-z]{0,4}_?$/), fc.stringMatching(/^[A-Za-z0-9]{8,40}$/))
  .map(([prefix, random]) => `${prefix}live_${random}`);
const accountIds = fc.stringMatching(/^[a-z][a-z0-9_-]{0,15}$/);
let n = 0;
const fileOf = (text: string) => {
  const path = join(dir, `accounts-${++n}.json`);
  writeFileSync(path, text);
  return path;
};
const refusalOf = (path: string, env: NodeJS.ProcessEnv = {}): string => {
  try {
    readAccountsFile(path, env);
    return 'accepted';
  } catch (error) {
    return (error as Error).message;
  }
};
const untouched = new Proxy(
  {},
  {
    get: (_, name) => {
      throw new Error(`not expected to be used: ${String(name)}`);
    },
  },
);
const contextOf = (accounts: Accounts): RunContext => ({
  schema: 'fleet_a',
  accounts,
  queue: untouched as FleetQueue,
  store: () => untouched as SyncStore,
  stopping: new AbortController().signal,
  emit: () => undefined,
});
const jobOf = (data: SyncJobData) =>
  ({ id: 'job-1', data, signal: new AbortController().signal }) as unknown as JobWithMetadata<SyncJobData>;

describe('fleet: keys in the wrong place', () => {
  test('a key pasted into "keyEnv" is refused, naming the account, and never printed', async () => {
    const seen: string[] = [];
    const failure = await failureOf(
      fc.assert(
        fc.asyncProperty(accountIds, keys, async (id, key) => {
          const message = refusalOf(fileOf(JSON.stringify({ accounts: { [id]: { keyEnv: key } } })));
          const outcome =
            message === 'accepted'
              ? 'accepted'
              : message.includes(key)
                ? 'refused, KEY PRINTED'
                : message.includes(`account "${id}"`)
                  ? 'refused, naming the account'
                  : 'refused, account not named';
          seen.push(outcome);
          return outcome === 'refused, naming the account';
        }),
        runs(100),
      ),
    );
    const wrong = seen.filter((o) => o !== 'refused, naming the account');
    report.check(
      {
        area: 'Fleet: secrets',
        input: 'a key (<prefix>live_<random>) pasted into an accounts file\'s "keyEnv"',
        cases: seen.length,
        expected: 'refused, naming the account; the key never printed',
        observed:
          wrong.length === 0
            ? 'refused, naming the account; the key never printed'
            : `${wrong.length} wrong, e.g. ${wrong[0]}`,
        serverSaw: NO_REQUEST,
      },
      failure,
    );
  });

  test("a key with whitespace or control characters (a .env file's CR/LF) fails its account at once, not retried, naming the account, never the key", async () => {
    const seen: string[] = [];
    const failure = await failureOf(
      fc.assert(
        fc.asyncProperty(
          accountIds,
          keys,
          fc.constantFrom('\r\n', '\n', '\r', ' ', '\t', '\u0000'),
          async (id, key, tail) => {
            let outcome: string;
            const events: unknown[] = [];
            const ctx = {
              ...contextOf(new Accounts({ [id]: { apiKey: `${key}${tail}`, job: { projects: 'all' } } }, undefined)),
              emit: (e: unknown) => events.push(e),
            };
            try {
              const result = await runAccountJob(ctx, jobOf({ account: id }));
              const message = (result.output as { error?: { message?: string } }).error?.message ?? '';
              const leaked = [result, events].some((v) => renderings(v).some((text) => text.includes(key)));
              outcome = leaked
                ? 'KEY PRINTED'
                : result.status !== 'deadletter'
                  ? `${result.status} (would be retried)`
                  : message.includes(`accounts.${id}.apiKey`)
                    ? 'failed at once, naming the account'
                    : 'failed, account not named';
            } catch (error) {
              outcome = `thrown (pg-boss retries it): ${(error as Error).name}`;
            }
            seen.push(outcome);
            return outcome === 'failed at once, naming the account';
          },
        ),
        runs(60),
      ),
    );
    const wrong = seen.filter((o) => o !== 'failed at once, naming the account');
    report.check(
      {
        area: 'Fleet: secrets',
        input: 'an account key ending in CR/LF, LF, CR, a space, a tab or NUL',
        cases: seen.length,
        expected: 'failed at once (no retry), naming the account; the key never printed',
        observed:
          wrong.length === 0
            ? 'failed at once (no retry), naming the account; the key never printed'
            : `${wrong.length} wrong, e.g. ${wrong[0]}`,
        serverSaw: NO_REQUEST,
      },
      failure,
    );
  });
});

describe('fleet: configurations that say something false', () => {
  test('an account id written twice in the accounts file is refused, naming it and both lines', async () => {
    const seen: string[] = [];
    const failure = await failureOf(
      fc.assert(
        fc.asyncProperty(
          fc.uniqueArray(accountIds, { minLength: 1, maxLength: 6 }),
          fc.nat(),
          fc.nat(),
          async (ids, pick, at) => {
            const twice = ids[pick % ids.length]!;
            const lines = ids.map((id) => `    "${id}": { "keyEnv": "KEY_${ids.indexOf(id)}" }`);
            lines.splice(at % (lines.length + 1), 0, `    "${twice}": { "keyEnv": "OTHER_KEY" }`);
            const text = `{\n  "accounts": {\n${lines.join(',\n')}\n  }\n}\n`;
            const message = refusalOf(fileOf(text));
            const where = lines.map((l, i) => (l.startsWith(`    "${twice}":`) ? i + 3 : 0)).filter((l) => l > 0);
            const named = message.includes(
              `account "${twice}" is given twice: line ${where[0]}, column 5 and line ${where[1]}, column 5`,
            );
            const outcome =
              message === 'accepted'
                ? 'accepted (the first entry silently lost)'
                : named
                  ? 'refused, naming the id and both lines'
                  : `refused: ${message}`;
            seen.push(outcome);
            return named;
          },
        ),
        runs(60),
      ),
    );
    const wrong = seen.filter((o) => o !== 'refused, naming the id and both lines');
    report.check(
      {
        area: 'Fleet: accounts file',
        input: 'an account id written twice (1 to 6 accounts, the copy anywhere)',
        cases: seen.length,
        expected: 'refused, naming the id and both lines',
        observed:
          wrong.length === 0 ? 'refused, naming the id and both lines' : `${wrong.length} wrong, e.g. ${wrong[0]}`,
        serverSaw: NO_REQUEST,
      },
      failure,
    );
  });

  test('an account removed from the configuration is neither listed nor counted failed', () => {
    const failed = {
      status: 'failed',
      requests: 0,
      rows: 0,
      startedAt: '2026-06-10T11:00:00.000Z',
      endedAt: '2026-06-10T11:00:01.000Z',
      dayWindowMs: 86_400_000,
      error: { name: 'UnauthorizedError', message: 'Invalid API key', status: 401 },
    };
    const jobs = [
      {
        id: 'j1',
        data: { account: 'acme' },
        state: 'completed',
        output: { ...failed, status: 'completed', error: undefined },
        startAfter: new Date(),
      },
      { id: 'j2', data: { account: 'removed' }, state: 'failed', output: failed, startAfter: new Date() },
    ] as unknown as Array<JobWithMetadata<SyncJobData>>;
    const status = statusOf(['acme'], jobs, Date.now());
    const listed = status.map((s) => `${s.account} ${s.state}`).join(', ');
    report.check({
      area: 'Fleet: status',
      input: "an account removed from the accounts file, its last job failed, in the queue's week of history",
      cases: 1,
      expected: 'acme completed',
      observed: listed,
      serverSaw: 'no server (status from the queue rows)',
    });
  });

  test("fleets with different warehouse schemas never share a queue, and a worker never runs another fleet's job", async () => {
    const seen: string[] = [];
    const schema = fc.stringMatching(/^[a-z_][a-z0-9_]{0,20}$/);
    const failure = await failureOf(
      fc.assert(
        fc.asyncProperty(
          schema,
          schema,
          fc.option(fc.stringMatching(/^[a-z0-9._-]{1,20}$/), { nil: undefined }),
          async (a, b, name) => {
            fc.pre(a !== b);
            const shared =
              queueSettings(name === undefined ? undefined : { name }, a).name ===
              queueSettings(name === undefined ? undefined : { name }, b).name;
            let resolved = 0;
            const ctx = {
              ...contextOf(
                new Accounts(() => (resolved++, { apiKey: 'sv_live_x', job: { projects: 'all' } }), undefined),
              ),
              schema: a,
            };
            const result = await runAccountJob(ctx, jobOf({ account: 'acme', schema: b }));
            const outcome = shared
              ? 'one queue shared'
              : resolved > 0
                ? "another fleet's job run"
                : result.status !== 'deadletter'
                  ? `another fleet's job ${result.status}`
                  : 'own queues; the stray job failed unrun';
            seen.push(outcome);
            return outcome === 'own queues; the stray job failed unrun';
          },
        ),
        runs(100),
      ),
    );
    const wrong = seen.filter((o) => o !== 'own queues; the stray job failed unrun');
    report.check(
      {
        area: 'Fleet: queues',
        input: 'two fleets on one database: different schemas, one queue name (given or default)',
        cases: seen.length,
        expected: 'own queues; a stray job of the other failed, never run',
        observed:
          wrong.length === 0
            ? 'own queues; a stray job of the other failed, never run'
            : `${wrong.length} wrong, e.g. ${wrong[0]}`,
        serverSaw: NO_REQUEST,
      },
      failure,
    );
  });
});
