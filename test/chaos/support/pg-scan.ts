/**
 * Whole-database checks of a PostgreSQL the fleet wrote: which tables hold a secret anywhere in a
 * row (every column, every schema: the warehouse and pg-boss's), and which current-state rows are
 * stored more than once.
 */
import type pg from 'pg';
import { TABLE_SCHEMAS } from '../../../src/sync/index.js';
import { CURRENT, type Current } from './truth.js';

/** `schema.table` of every table (every schema but the catalogues) with a row whose text holds `secret`. */
export async function tablesHolding(pool: pg.Pool, secret: string): Promise<string[]> {
  const { rows: tables } = await pool.query<{ s: string; t: string }>(
    "SELECT table_schema AS s, table_name AS t FROM information_schema.tables WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')",
  );
  const out: string[] = [];
  for (const { s, t } of tables) {
    // A row as text carries every column (json and bytea as their text forms). strpos, not LIKE: a
    // key's underscores are LIKE wildcards.
    const q = `SELECT count(*)::int AS n FROM "${s.replaceAll('"', '""')}"."${t.replaceAll('"', '""')}" r WHERE strpos(r::text, $1) > 0`;
    const { rows } = await pool.query<{ n: number }>(q, [secret]);
    if (Number(rows[0]?.n) > 0) out.push(`${s}.${t}`);
  }
  return out;
}

/** The columns that make a current-state row's key, as truth.ts keys it. */
const KEY_COLUMNS: Record<Current, string[]> = {
  'projects.list': ['id'],
  'backlinks.anchors': ['project_id', 'anchor_text'],
  'content.list': ['project_id', 'id'],
};

/** Per table, keys stored more than once for `account` (e.g. `content.list: p1|c9 ×2`). */
export async function doubledRows(pool: pg.Pool, schema: string, account: string): Promise<string[]> {
  const out: string[] = [];
  for (const dataset of CURRENT) {
    const cols = KEY_COLUMNS[dataset].map((c) => `"${c}"`).join(', ');
    const { rows } = await pool.query<{ k: string; n: number }>(
      `SELECT concat_ws('|', ${cols}) AS k, count(*)::int AS n FROM "${schema}"."${TABLE_SCHEMAS[dataset].table}" WHERE account_id = $1 GROUP BY ${cols} HAVING count(*) > 1`,
      [account],
    );
    for (const r of rows) out.push(`${dataset}: ${r.k} ×${r.n}`);
  }
  return out;
}
