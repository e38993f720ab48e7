/**
 * What the plan tests of the insights share (issue 23 §1 on PostgreSQL): a source that records the
 * statements an answer sends, and the plan PostgreSQL makes for one of them, checked by its shape
 * (EXPLAIN), not by a clock.
 */
import pg from 'pg';
import { numberedParameters } from '../../src/insights/one-statement.js';
import { openSource } from '../../src/insights/open-source.js';
import type { InsightSource } from '../../src/insights/source.js';
import { postgresStore } from '../../src/sync/index.js';
import { startPostgres } from '../helpers/postgres-server.js';
import { fixtureWrites } from './support.js';

/** The schema the plan tests' stores write to. */
const SCHEMA = 'seo_visibility';

/** A statement an answer sent, with its `?` parameters. */
export interface SentStatement {
  sql: string;
  params: unknown[];
}

/** `raw`, pushing every statement it runs onto `statements`. */
export function recordingSource(raw: InsightSource, statements: SentStatement[]): InsightSource {
  return {
    ...raw,
    dialect: raw.dialect,
    location: raw.location,
    columns: raw.columns,
    close: raw.close,
    query: (sql, params = [], limits) => {
      statements.push({ sql, params: [...params] });
      return raw.query(sql, params, limits);
    },
  };
}

/** One node of a plan, with the fields the tests read. */
export interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'CTE Name'?: string;
  'Index Cond'?: string;
  Filter?: string;
  'Join Filter'?: string;
  'Plan Rows'?: number;
  Plans?: PlanNode[];
}

/** The plan PostgreSQL at `url` makes for `statement` in `schema`, as a flat list of nodes (each with its children). */
export async function explain(url: string, schema: string, statement: SentStatement): Promise<PlanNode[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`SET search_path TO ${schema}`);
    const text = numberedParameters(statement.sql);
    const result = await client.query({ text: `EXPLAIN (FORMAT JSON) ${text}`, values: statement.params });
    const nodes: PlanNode[] = [];
    const walk = (node: PlanNode) => {
      nodes.push(node);
      for (const child of node.Plans ?? []) walk(child);
    };
    walk((result.rows[0] as { 'QUERY PLAN': Array<{ Plan: PlanNode }> })['QUERY PLAN'][0]?.Plan as PlanNode);
    return nodes;
  } finally {
    await client.end();
  }
}

/** A PostgreSQL account the plan tests read through a {@link recordingSource}. */
export interface PlanAccount {
  /** The account's source: every statement it runs is pushed onto {@link PlanAccount.statements}. */
  source: InsightSource;
  /** The statements `source` ran (empty it before an answer to keep that answer's alone). */
  statements: SentStatement[];
  /** The plan PostgreSQL makes for a statement the answer sent, as a flat list of nodes. */
  plan(statement: SentStatement): Promise<PlanNode[]>;
  /** Closes the source and stops the server. */
  close(): Promise<void>;
}

/**
 * A fresh PostgreSQL server whose store holds the insights fixture, then the rows `inserts` add
 * (run in {@link SCHEMA}), with statistics gathered (ANALYZE), so its plans are those of that account.
 * @example
 * let account: PlanAccount;
 * beforeAll(async () => {
 *   account = await planAccount([`INSERT INTO projects_list (id) SELECT 'p' || i FROM generate_series(1, 60) i`]);
 * }, 120_000);
 * afterAll(() => account?.close());
 */
export async function planAccount(inserts: readonly string[]): Promise<PlanAccount> {
  const postgres = await startPostgres();
  try {
    const store = postgresStore(postgres.url);
    await store.open();
    await store.commit({ writes: fixtureWrites() });
    await store.close();
    const client = new pg.Client({ connectionString: postgres.url });
    await client.connect();
    try {
      await client.query(`SET search_path TO ${SCHEMA}`);
      for (const insert of inserts) await client.query(insert);
      await client.query('ANALYZE');
    } finally {
      await client.end();
    }
    const statements: SentStatement[] = [];
    const source = recordingSource(await openSource({ postgres: postgres.url, schema: SCHEMA }), statements);
    return {
      source,
      statements,
      plan: (statement) => explain(postgres.url, SCHEMA, statement),
      close: async () => {
        await source.close();
        await postgres.stop();
      },
    };
  } catch (error) {
    await postgres.stop();
    throw error;
  }
}
