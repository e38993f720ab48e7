import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { TABLE_SCHEMAS } from '../../src/sync/index.js';

const BOOLEAN = /^(is_|dofollow$|featured_snippet$)/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/**
 * Copies every table of a SQLite store into PostgreSQL with real column types, as a Postgres store
 * would hold them: integers and reals as numbers, 0/1 flags as booleans, ISO timestamps as
 * timestamptz, JSON text as jsonb, the rest as text. (Stands in for a Postgres sync in the tests.)
 */
export async function copyToPostgres(sqlitePath: string, url: string): Promise<void> {
  const db = new DatabaseSync(sqlitePath, { readOnly: true });
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (const t of Object.values(TABLE_SCHEMAS)) {
      const rows = db.prepare(`SELECT * FROM ${t.table}`).all() as Array<Record<string, unknown>>;
      const columns = db.prepare(`SELECT name FROM pragma_table_info('${t.table}')`).all().map((r) => String(r['name']));
      const types = columns.map((c) => typeOf(c, rows.map((r) => r[c]).filter((v) => v !== null && v !== undefined)));
      await client.query(`DROP TABLE IF EXISTS ${t.table} CASCADE`);
      await client.query(`CREATE TABLE ${t.table} (${columns.map((c, i) => `"${c}" ${types[i]}`).join(', ')}, PRIMARY KEY (${t.primaryKey.map((c) => `"${c}"`).join(', ')}))`);
      for (let i = 0; i < rows.length; i += 500) {
        const batch = rows.slice(i, i + 500);
        const values: unknown[] = [];
        const tuples = batch.map((row) => `(${columns.map((c, j) => {
          const v = row[c];
          values.push(v === null || v === undefined ? null : types[j] === 'boolean' ? Boolean(v) : v);
          return `$${values.length}`;
        }).join(', ')})`);
        await client.query(`INSERT INTO ${t.table} VALUES ${tuples.join(', ')}`, values);
      }
    }
    // Statistics, as autovacuum would gather them soon after a sync.
    await client.query('ANALYZE');
  } finally {
    await client.end();
    db.close();
  }
}

function typeOf(column: string, values: unknown[]): string {
  if (values.length === 0) return 'text';
  if (values.every((v) => typeof v === 'number' || typeof v === 'bigint')) {
    if (BOOLEAN.test(column) && values.every((v) => v === 0 || v === 1)) return 'boolean';
    return values.every((v) => Number.isInteger(Number(v))) ? 'bigint' : 'double precision';
  }
  if (values.every((v) => typeof v === 'string' && TIMESTAMP.test(v))) return 'timestamptz';
  if (values.every((v) => typeof v === 'string' && /^[[{]/.test(v))) return 'jsonb';
  return 'text';
}
