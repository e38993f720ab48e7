/**
 * 8b. The report and the MCP view tools at agency scale (issue 23 §1): a synthetic account of 500
 * projects, 100 of them with 2,000 keywords × 90 days of rankings (bench:quick: 50 projects, 10 with
 * 200 keywords × 30 days), written straight into each store, then the same account doubled. Each
 * answer is timed against one grouped pass over the rows it reads, in the same database and run;
 * the target is 3× that pass, and about 2× the time when the account doubles (linear).
 */
import { insightViews } from '../src/insights/create-views.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openSource } from '../src/insights/open-source.js';
import { aiVisibility, auditChanges, backlinkChanges, rankChanges } from '../src/insights/queries.js';
import { gatherReport } from '../src/insights/report-data.js';
import type { InsightSource } from '../src/insights/source.js';
import { postgresStore, sqliteStore } from '../src/sync/index.js';
import { startPostgres } from '../test/helpers/postgres-server.js';
import { QUICK, type Row, ms, versus } from './lib.js';
import { type SyntheticAccount, fillSynthetic, groupedPass, seedCommit } from './synthetic-account.js';

const SECTION = '8b. Insights at agency scale';
// Quick mode's figures bind nothing (timing): it proves the section runs, on an account small enough
// for seconds; the report still reads 28 days of it.
const N: SyntheticAccount = QUICK
  ? { projects: 20, withData: 4, keywords: 100, days: 30 }
  : { projects: 500, withData: 100, keywords: 2000, days: 90 };
const DOUBLED: SyntheticAccount = { ...N, projects: N.projects * 2, withData: N.withData * 2 };
const TARGET = 3;
/** Twice the rows should take about twice the time; 2.6× leaves room for a noisy shared machine. */
const LINEAR = 2.6;

/** What is timed: the report's queries and each MCP view tool, each with the tables it reads. */
const ANSWERS: Array<{
  name: string;
  run: (s: InsightSource) => Promise<unknown>;
  reads: Array<'rankings' | 'prompts' | 'backlinks' | 'audits'>;
}> = [
  {
    name: 'report (every project, 28 days)',
    run: (s) => gatherReport(s, { days: 28 }),
    reads: ['rankings', 'prompts', 'backlinks', 'audits'],
  },
  { name: 'rank_changes tool', run: (s) => rankChanges(s, { days: 28, limit: 50 }), reads: ['rankings'] },
  { name: 'ai_visibility tool', run: (s) => aiVisibility(s, { days: 28, limit: 50 }), reads: ['prompts'] },
  { name: 'backlink_changes tool', run: (s) => backlinkChanges(s, { days: 28, limit: 50 }), reads: ['backlinks'] },
  { name: 'audit_changes tool', run: (s) => auditChanges(s, { limit: 50 }), reads: ['audits'] },
];

const describe = (a: SyntheticAccount) =>
  `${a.projects} projects, ${a.withData} with ${a.keywords.toLocaleString('en-US')} keywords × ${a.days} days`;

export async function insightsScaleBench(): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), 'sv-bench-scale-'));
  const postgres = await startPostgres();
  const rows: Row[] = [];
  // One timed run each (after versus's one warm-up run each, ceil(runs / 5)): the full size holds 18
  // and 36 million ranking rows, and quick mode's figures bind nothing. Each figure is one sample.
  const runs = 1;
  try {
    for (const store of ['SQLite', 'PostgreSQL'] as const) {
      const times = new Map<string, number[]>();
      for (const [size, account] of [
        ['n', N],
        ['2n', DOUBLED],
      ] as const) {
        const source = await syntheticSource(store, account, dir, postgres.url, size);
        try {
          for (const answer of ANSWERS) {
            const peer = groupedPass(answer.reads);
            const timed = await versus(
              () => answer.run(source),
              () => source.query(peer),
              runs,
              0,
            );
            times.set(answer.name, [...(times.get(answer.name) ?? []), timed.a]);
            if (process.env.BENCH_VERBOSE)
              process.stderr.write(
                `${store} ${size} ${answer.name}: ${timed.a.toFixed(0)} ms vs ${timed.b.toFixed(0)} ms\n`,
              );
            if (size === 'n' || answer === ANSWERS[0]) {
              rows.push({
                section: SECTION,
                figure: `${answer.name}, ${describe(account)}, ${store}`,
                value: ms(timed.a, 0),
                peer: `one grouped pass over the rows it reads: ${ms(timed.b, 0)} (${timed.ratio.toFixed(1)}×)`,
                target: `≤ ${TARGET}× the grouped pass`,
                pass: timed.ratio <= TARGET,
              });
            }
          }
        } finally {
          await source.close();
        }
      }
      const growth = ANSWERS.map((a) => {
        const [small, large] = times.get(a.name) ?? [];
        return { name: a.name, ratio: (large ?? 0) / (small ?? 1) };
      });
      rows.push({
        section: SECTION,
        figure: `the account doubled (${describe(N)} → ${describe(DOUBLED)}), ${store}`,
        value: growth.map((g) => `${g.name.split(' ')[0]} ${g.ratio.toFixed(2)}×`).join(', '),
        peer: 'twice the rows',
        target: `each ≤ ${LINEAR}× (linear)`,
        pass: growth.every((g) => g.ratio <= LINEAR),
      });
    }
  } finally {
    await postgres.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

/** A store of the synthetic account (its tables and views made by the store itself), opened for reading. */
async function syntheticSource(
  store: 'SQLite' | 'PostgreSQL',
  account: SyntheticAccount,
  dir: string,
  url: string,
  size: string,
): Promise<InsightSource> {
  if (store === 'SQLite') {
    const file = join(dir, `scale-${size}.db`);
    const target = sqliteStore(file, { extensions: [insightViews] });
    await target.open();
    await target.commit(seedCommit());
    await target.close();
    const db = new DatabaseSync(file);
    try {
      db.exec('BEGIN');
      await fillSynthetic((sql) => db.exec(sql), 'sqlite', account);
      db.exec('COMMIT');
    } finally {
      db.close();
    }
    return openSource({ db: file, schema: 'unused' });
  }
  const schema = `scale_${size}`;
  const target = postgresStore(url, { schema, extensions: [insightViews] });
  await target.open();
  await target.commit(seedCommit());
  await target.close();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`SET search_path TO ${schema}`);
    await fillSynthetic((sql) => client.query(sql), 'postgres', account);
    await client.query('ANALYZE');
  } finally {
    await client.end();
  }
  return openSource({ postgres: url, schema });
}

// `tsx bench/insights-scale.ts [--quick]` runs this section alone.
if (process.argv[1]?.endsWith('insights-scale.ts')) {
  for (const row of await insightsScaleBench())
    process.stdout.write(`${row.pass ? 'PASS' : 'miss'} ${row.figure}: ${row.value} | ${row.peer} | ${row.target}\n`);
}
