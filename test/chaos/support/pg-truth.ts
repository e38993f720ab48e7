/**
 * What a PostgreSQL copy holds of the current-state tables and the rankings snapshot, per account,
 * in the shapes of truth.ts, so the same checks compare it with the simulator's truth.
 */
import type pg from 'pg';
import { TABLE_SCHEMAS } from '../../../src/sync/index.js';
import { CURRENT, type Current } from './truth.js';

const keyOf = (dataset: Current, row: Record<string, unknown>): string =>
  dataset === 'projects.list'
    ? String(row['id'])
    : `${String(row['project_id'])}|${String(dataset === 'backlinks.anchors' ? row['anchor_text'] : row['id'])}`;

/** Key → `_deleted_at` per table, for one account of a schema. */
export async function pgCopyOf(
  pool: pg.Pool,
  schema: string,
  account: string,
): Promise<Record<Current, Map<string, unknown>>> {
  const out = {} as Record<Current, Map<string, unknown>>;
  for (const dataset of CURRENT) {
    const { rows } = await pool.query(
      `SELECT * FROM "${schema}"."${TABLE_SCHEMAS[dataset].table}" WHERE account_id = $1`,
      [account],
    );
    out[dataset] = new Map(rows.map((r: Record<string, unknown>) => [keyOf(dataset, r), r['_deleted_at'] ?? null]));
  }
  return out;
}

/** Rows of `rankings_list` per project for one snapshot date, for one account. */
export async function pgSnapshotCounts(
  pool: pg.Pool,
  schema: string,
  account: string,
  date: string,
): Promise<Map<string, number>> {
  const { rows } = await pool.query(
    `SELECT project_id, count(*)::int AS n FROM "${schema}"."${TABLE_SCHEMAS['rankings.list'].table}" WHERE account_id = $1 AND snapshot_date = $2 GROUP BY project_id`,
    [account, date],
  );
  return new Map(rows.map((r: { project_id: string; n: number }) => [r.project_id, Number(r.n)]));
}
