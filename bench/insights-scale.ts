/**
 * 8b. The report and the MCP view tools at agency scale (issue 23 §1): a synthetic account of 500
 * projects, 100 of them with 2,000 keywords × 90 days of rankings (bench:quick: 20 projects, 4 with
 * 100 keywords × 30 days), written straight into each store, then the same account doubled. Each
 * answer is timed against one grouped pass over the rows it reads, in the same database and run;
 * the target is 3× that pass, and about 2× the time when the account doubles (linear).
 *
 * Each answer and its pass run once untimed first (a warm-up, the same for both sides: the first
 * read of a freshly filled store pays for its pages and plans, and would be charged to whoever ran
 * first), then `BENCH_SCALE_RUNS` (default 1) timed runs each, alternated.
 *
 * Knobs (environment), for a check in minutes instead of the full size's hour (18 and 36 million
 * ranking rows per store); the issue's row is the full size, the default:
 * - `BENCH_SCALE=projects,withData,keywords,days`: the account's size, e.g. `BENCH_SCALE=100,20,2000,90`
 *   (the mid size: 3.6 million ranking rows, then 7.2 million doubled).
 * - `BENCH_SCALE_ANSWERS=report,rank_changes`: only the answers whose names start with these words.
 * - `BENCH_SCALE_STORES=PostgreSQL` (or `SQLite`): one store only.
 * - `BENCH_SCALE_DOUBLED=0`: skip the doubled account (and its linearity row).
 * - `BENCH_SCALE_RUNS=3`: timed runs per answer (the median is reported).
 * e.g. `BENCH_SCALE=100,20,2000,90 BENCH_SCALE_DOUBLED=0 BENCH_VERBOSE=1 npx tsx bench/insights-scale.ts`
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
const N: SyntheticAccount =
  scaleFromEnv(process.env.BENCH_SCALE) ??
  (QUICK
    ? { projects: 20, withData: 4, keywords: 100, days: 30 }
    : { projects: 500, withData: 100, keywords: 2000, days: 90 });
const DOUBLED: SyntheticAccount = { ...N, projects: N.projects * 2, withData: N.withData * 2 };
const TARGET = 3;
/** Twice the rows should take about twice the time; 2.6× leaves room for a noisy shared machine. */
const LINEAR = 2.6;
const list = (text: string | undefined) =>
  text
    ?.split(',')
    .map((w) => w.trim())
    .filter(Boolean) ?? [];
const STORES = (['SQLite', 'PostgreSQL'] as const).filter(
  (s) => !process.env.BENCH_SCALE_STORES || list(process.env.BENCH_SCALE_STORES).includes(s),
);
const WITH_DOUBLED = process.env.BENCH_SCALE_DOUBLED !== '0';
const RUNS = Math.max(1, Math.trunc(Number(process.env.BENCH_SCALE_RUNS ?? 1)) || 1);

/** `projects,withData,keywords,days` → the account; undefined when unset; a clear error when malformed. */
function scaleFromEnv(text: string | undefined): SyntheticAccount | undefined {
  if (!text) return undefined;
  const [projects, withData, keywords, days, ...rest] = text.split(',').map((n) => Number(n.trim()));
  const whole = (n: number | undefined) => n !== undefined && Number.isInteger(n) && n > 0;
  if (rest.length || ![projects, withData, keywords, days].every(whole) || (withData as number) > (projects as number))
    throw new Error(
      `BENCH_SCALE must be projects,withData,keywords,days (positive whole numbers, withData ≤ projects), e.g. 100,20,2000,90; got ${JSON.stringify(text)}`,
    );
  return { projects, withData, keywords, days } as SyntheticAccount;
}

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

/** The answers timed: every one, or those `BENCH_SCALE_ANSWERS` names (by the first word of their name). */
const TIMED = process.env.BENCH_SCALE_ANSWERS
  ? ANSWERS.filter((a) => list(process.env.BENCH_SCALE_ANSWERS).some((w) => a.name.startsWith(w)))
  : ANSWERS;

const describe = (a: SyntheticAccount) =>
  `${a.projects} projects, ${a.withData} with ${a.keywords.toLocaleString('en-US')} keywords × ${a.days} days`;

export async function insightsScaleBench(): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), 'sv-bench-scale-'));
  const postgres = await startPostgres();
  const rows: Row[] = [];
  try {
    for (const store of STORES) {
      const times = new Map<string, number[]>();
      const sizes = [['n', N] as const, ...(WITH_DOUBLED ? [['2n', DOUBLED] as const] : [])];
      for (const [size, account] of sizes) {
        const source = await syntheticSource(store, account, dir, postgres.url, size);
        try {
          for (const answer of TIMED) {
            const peer = groupedPass(answer.reads);
            // One untimed run of each side first (see the header), then RUNS timed runs each.
            const timed = await versus(
              () => answer.run(source),
              () => source.query(peer),
              RUNS,
              1,
            );
            times.set(answer.name, [...(times.get(answer.name) ?? []), timed.a]);
            if (process.env.BENCH_VERBOSE)
              process.stderr.write(
                `${store} ${size} ${answer.name}: ${timed.a.toFixed(0)} ms vs ${timed.b.toFixed(0)} ms (${timed.ratio.toFixed(2)}×)\n`,
              );
            if (size === 'n' || answer === TIMED[0]) {
              rows.push({
                section: SECTION,
                figure: `${answer.name}, ${describe(account)}, ${store}`,
                value: `${ms(timed.a, 0)} (${RUNS === 1 ? 'one run' : `median of ${RUNS} runs`}, after one warm-up)`,
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
      if (!WITH_DOUBLED) continue;
      const growth = TIMED.map((a) => {
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
