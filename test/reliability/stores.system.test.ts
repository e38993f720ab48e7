/**
 * Issue 22 §1 and the frozen-PostgreSQL item of §2, over real sockets into a real PostgreSQL: values
 * the API may send that a typed column cannot hold, a fleet schema whose accounts disagree on a new
 * field's type, and a cluster frozen under a running sync. Each row is one defect of that run, tried
 * again: the copy must complete with every row, and a stop must be answered while the database is frozen.
 */
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, test } from 'vitest';
import {
  type DatasetName,
  type SyncError,
  TABLE_SCHEMAS,
  postgresStore,
  runSync,
  sqliteStore,
} from '../../src/sync/index.js';
import type { Edit } from '../sync/support/editing-proxy.js';
import { type Freezer, freezerOf } from '../sync/support/freeze-postgres.js';
import { type ProxiedAccount, startProxiedAccount } from '../sync/support/proxied-account.js';
import { useReport } from './support/report.js';

const report = useReport('stores.system');
let env: ProxiedAccount;
let freezer: Freezer;
/** Rows per table of a clean copy (SQLite, nothing edited): what every copy below must hold. */
let reference: Record<string, number>;
const JOB = {
  projects: 'all' as const,
  datasets: ['rankings.list', 'prompts.list', 'audits.list', 'backlinks.anchors', 'content.list'] as DatasetName[],
};
const TABLES = JOB.datasets.map((d) => TABLE_SCHEMAS[d].table);

beforeAll(async () => {
  // A cluster of its own: the SIGSTOP tests below would stall the shared one's other files too.
  env = await startProxiedAccount({ keywords: 120, ownCluster: true });
  freezer = await freezerOf(env.pool);
  const path = join(env.account.dir, 'reference.db');
  await runSync(env.client, JOB, { store: sqliteStore(path), now: env.account.now });
  const db = new DatabaseSync(path, { readOnly: true });
  reference = Object.fromEntries(
    TABLES.map((t) => [t, Number(db.prepare(`SELECT count(*) AS n FROM ${t}`).get()?.['n'])]),
  );
  db.close();
}, 120_000);
afterAll(async () => {
  freezer?.thaw();
  await env?.close();
});

/** Rows per table in a Postgres schema (of one account). */
async function counts(schema: string, accountId?: string): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const t of TABLES) {
    const where = accountId ? ' WHERE account_id = $1' : '';
    out[t] = Number(
      (await env.pool.query(`SELECT count(*) AS n FROM "${schema}"."${t}"${where}`, accountId ? [accountId] : []))
        .rows[0].n,
    );
  }
  return out;
}

const describeCounts = (c: Record<string, number>) => TABLES.map((t) => `${t} ${c[t]}`).join(', ');
const total = (c: Record<string, number>) => Object.values(c).reduce((a, b) => a + b, 0);

/** Runs the job into `schema` with the proxy editing every answer, three times (a value that fails once fails every run). */
async function copyWith(
  edit: Edit,
  schema: string,
  accountId?: string,
): Promise<{ statuses: string[]; errors: string[]; held: Record<string, number>; requests: number }> {
  env.proxy.edit(edit);
  const statuses: string[] = [];
  const errors: string[] = [];
  const before = env.proxy.server.hits.length;
  try {
    for (let run = 0; run < 3; run++) {
      const outcome = await runSync(env.client, JOB, {
        store: postgresStore(env.pool, { schema, ...(accountId ? { accountId } : {}) }),
        now: env.account.now,
      }).catch((e: unknown) => e);
      if (outcome instanceof Error) errors.push(outcome.message.slice(0, 160));
      statuses.push(outcome instanceof Error ? 'failed' : (outcome as { status: string }).status);
    }
  } finally {
    env.proxy.edit(undefined);
  }
  return { statuses, errors, held: await counts(schema, accountId), requests: env.proxy.server.hits.length - before };
}

/** An edit of every list page whose path matches: `change(item, index, hit)` per item. */
function eachItem(
  path: RegExp,
  change: (item: Record<string, unknown>, index: number, projectPath: string) => void,
): Edit {
  return (hit, body) => {
    if (!path.test(hit.path) || !Array.isArray(body.data)) return undefined;
    for (const [i, item] of body.data.entries()) change(item as Record<string, unknown>, i, hit.path);
    return undefined;
  };
}

describe('no value the API sends stops a copy (PostgreSQL)', () => {
  const cases: Array<{ input: string; schema: string; edit: () => Edit }> = [
    {
      input: 'a NUL (\\u0000) in one keyword of one project (22021)',
      schema: 'nul_keyword',
      edit: () =>
        eachItem(
          /\/rankings\/keywords$/,
          (item, i, path) => void (i === 3 && path.includes(firstProject()) && (item['keyword'] = 'hiking\u0000boots')),
        ),
    },
    {
      input:
        'a NUL inside latest_responses (jsonb, 22P05) and a lone surrogate in a prompt (22P02 in JSON, U+FFFD in text)',
      schema: 'nul_json',
      edit: () =>
        eachItem(/\/prompts$/, (item, i) =>
          i === 0 ? withNul(item['latest_responses']) : i === 1 && (item['prompt'] = 'lone \ud800 surrogate'),
        ),
    },
    {
      input: 'a field the server added: a number in the first project, "n/a" in the next, an object after (22P02)',
      schema: 'new_field',
      edit: () =>
        eachItem(
          /\/rankings\/keywords$/,
          (item, _i, path) =>
            void (item['difficulty'] = path.includes(firstProject())
              ? 37
              : path.includes(secondProject())
                ? 'n/a'
                : { level: 'hard' }),
        ),
    },
    {
      input: 'content.due_date "" and audits completed_at "", started_at "2026-02-30T10:00:00Z" (22007, 22008)',
      schema: 'empty_times',
      edit: () => (hit, body) => {
        eachItem(/\/content$/, (item) => void (item['due_date'] = ''))(hit, body);
        return eachItem(
          /\/audits$/,
          (item) => void Object.assign(item, { completed_at: '', started_at: '2026-02-30T10:00:00Z' }),
        )(hit, body);
      },
    },
    {
      input: 'one anchor record with 1,700 fields (54011: at most 1600 columns)',
      schema: 'wide_record',
      edit: () =>
        eachItem(/\/backlinks\/anchors$/, (item, i) => {
          if (i === 0) for (let f = 0; f < 1_700; f++) item[`f${f}`] = f % 2 ? `v${f}` : f;
        }),
    },
  ];
  for (const c of cases) {
    test(c.input, async () => {
      const got = await copyWith(c.edit(), c.schema);
      report.check({
        area: 'Sync: values a column cannot hold',
        input: `${c.input}; the same job run 3 times into one schema`,
        cases: 3,
        expected: `3 runs completed; ${describeCounts(reference)}`,
        observed: `${got.statuses.filter((s) => s === 'completed').length} runs completed${got.errors.length ? ` (${got.errors[0]})` : ''}; ${describeCounts(got.held)}`,
        serverSaw: `${got.requests} requests`,
      });
    }, 120_000);
  }

  test('fleet schema: one account sends difficulty 37, the next "medium"', async () => {
    const acme = await copyWith(
      eachItem(/\/rankings\/keywords$/, (item) => void (item['difficulty'] = 37)),
      'fleet_types',
      'acme',
    );
    const globex = await copyWith(
      eachItem(/\/rankings\/keywords$/, (item) => void (item['difficulty'] = 'medium')),
      'fleet_types',
      'globex',
    );
    report.check({
      area: 'Sync: values a column cannot hold',
      input: 'fleet schema (accountId): acme sends a new field difficulty as 37, then globex as "medium"',
      cases: 6,
      expected: `acme ${total(reference)} rows, globex ${total(reference)} rows, 6 runs completed`,
      observed: `acme ${total(acme.held)} rows, globex ${total(globex.held)} rows, ${[...acme.statuses, ...globex.statuses].filter((s) => s === 'completed').length} runs completed`,
      serverSaw: `${acme.requests + globex.requests} requests`,
    });
  }, 120_000);
});

describe('a frozen PostgreSQL', () => {
  test('SIGSTOP on the cluster under a running sync, then a stop', async () => {
    const stop = new AbortController();
    let pages = 0;
    const run = runSync(env.client, JOB, {
      store: postgresStore(env.server.url, { schema: 'frozen_stop' }),
      signal: stop.signal,
      now: env.account.now,
      concurrency: 1,
      onProgress: () => {
        if (++pages !== 3) return;
        freezer.freeze();
        setTimeout(() => stop.abort(), 2_000);
      },
    }).then(
      (r) => `${r.status} (${r.reason})`,
      (e: unknown) => `failed: ${String((e as Error).message).slice(0, 120)}`,
    );
    let timer: NodeJS.Timeout | undefined;
    const outcome = await Promise.race([
      run,
      new Promise<string>(
        (resolve) => (timer = setTimeout(() => resolve('still waiting 20 s after the stop'), 22_000)),
      ),
    ]);
    clearTimeout(timer);
    freezer.thaw();
    await run;
    const again = await runSync(env.client, JOB, {
      store: postgresStore(env.server.url, { schema: 'frozen_stop' }),
      now: env.account.now,
    });
    const held = await counts('frozen_stop');
    report.check({
      area: 'Sync: a frozen database',
      input:
        'cluster SIGSTOPped after 3 pages, stop 2 s later; the cluster stays frozen until the run answers (bounded at 20 s)',
      cases: 1,
      expected: `stopped (aborted) while frozen; after the thaw the next run completed with ${describeCounts(reference)}`,
      observed: `${outcome} while frozen; after the thaw the next run ${again.status} with ${describeCounts(held)}`,
      serverSaw: `frozen after ${Math.min(pages, 3)} pages`,
    });
  }, 180_000);
});

/** Appends a NUL to the first string inside a JSON value (keeping the record valid for the SDK's schema). */
function withNul(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(withNul);
  if (value === null || typeof value !== 'object') return false;
  const record = value as Record<string, unknown>;
  for (const [key, v] of Object.entries(record)) {
    if (typeof v === 'string') {
      record[key] = `${v}\u0000`;
      return true;
    }
    if (withNul(v)) return true;
  }
  return false;
}

describe('a frozen PostgreSQL, no stop', () => {
  test('SIGSTOP on the cluster under a running sync, nobody stops it', async () => {
    let pages = 0;
    const run = runSync(env.client, JOB, {
      store: postgresStore(env.server.url, { schema: 'frozen_deadline', timeoutMs: 1_000 }),
      now: env.account.now,
      concurrency: 1,
      onProgress: () => {
        if (++pages === 3) freezer.freeze();
      },
    }).then(
      (r) => `${r.status}`,
      (e: unknown) =>
        `SyncError ${(e as SyncError).code}${(e as SyncError).permanent ? ' (permanent)' : ''}: ${/did not answer within \d+ ms/.exec(String((e as Error).message))?.[0] ?? String((e as Error).message).slice(0, 80)}; ${/run again to resume/.test(String((e as Error).message)) ? 'says run again to resume' : 'does not say to run again'}`,
    );
    let timer: NodeJS.Timeout | undefined;
    const outcome = await Promise.race([
      run,
      new Promise<string>(
        (resolve) => (timer = setTimeout(() => resolve('still waiting 40 s after the freeze'), 40_000)),
      ),
    ]);
    clearTimeout(timer);
    freezer.thaw();
    await run;
    report.check({
      area: 'Sync: a frozen database',
      input:
        'cluster SIGSTOPped after 3 pages, no stop, timeoutMs 1,000; the cluster stays frozen until the run answers (bounded at 40 s)',
      cases: 1,
      expected: 'SyncError store: did not answer within 16000 ms; says run again to resume',
      observed: outcome,
      serverSaw: `frozen after ${Math.min(pages, 3)} pages`,
    });
  }, 120_000);
});

let projects: string[] | undefined;
const listed = () => (projects ??= env.account.sim.data.listedProjects.map((p) => p.id));
const firstProject = () => listed()[0] as string;
const secondProject = () => listed()[1] as string;
