/**
 * What the plan tests of the insights share (issue 23 §1 on PostgreSQL): a source that records the
 * statements an answer sends, and the plan PostgreSQL makes for one of them, checked by its shape
 * (EXPLAIN), not by a clock.
 */
import pg from 'pg';
import type { InsightSource } from '../../src/insights/source.js';

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
    let n = 0;
    const text = statement.sql.replace(/\?/g, () => `$${++n}`);
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
