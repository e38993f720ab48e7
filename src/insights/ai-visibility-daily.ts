/**
 * `ai_visibility_daily`: the AI answers of prompts_history counted per account, project, model and
 * UTC day (answers, visible ones, the sum and count of positions, those citing the project's site),
 * kept by the database itself.
 *
 * The per-model figures of `ai_visibility` (the MCP tool and the report) group every check of two
 * periods by project, model and day. SQLite does that by sorting the checks, which alone took 2.9×
 * one pass over the table's key at agency scale (docs/benchmarks.md); this table holds the groups
 * already, a few rows per project and day.
 *
 * Triggers keep it (kept-table.ts says how it is made, checked and dropped): each insert, update
 * or delete of a check adds or takes away its counts in the same transaction as the change, whoever
 * writes (the sync, a user's own load); a project's new `websiteUrl` counts its citations again, and
 * in PostgreSQL a TRUNCATE empties or counts again. The counts come from the SQL the views use
 * (`responsesSelect`), so they are the views' numbers.
 */
import { type KeptObject, type KeptTable, SCHEMA } from './kept-table.js';
import type { Sql } from './dialect.js';
import {
  DAILY,
  DAILY_COUNTS as COUNTS,
  DAILY_KEY as KEY,
  RESPONSE_COLUMNS,
  responsesSelect,
  sitesSelect,
} from './views/ai-visibility.js';

const H = 'prompts_history';
const P = 'projects_list';

/**
 * The table, for the kept-table machinery (kept-table.ts): its definitions for the columns `q`
 * knows; none when the store has no prompts_history to count.
 * @internal
 */
export const aiVisibilityDaily: KeptTable = {
  name: DAILY,
  columns: Object.fromEntries([
    ...KEY.map((c) => [c, c === 'day' ? 'date' : 'text'] as const),
    ...COUNTS.map((c) => [c, 'number'] as const),
  ]),
  key: KEY,
  holds:
    "prompts_history's AI answers counted per account (empty in a store of one account), project, model and UTC day, kept by triggers in the same transaction as each check: answers, those with the brand visible, the sum and count of its positions, those citing the project's site. Per-day visibility without reading every check: 100.0 * visible / responses",
  what: 'The daily AI-visibility counts',
  without: 'the AI-visibility answers read prompts_history',
  follows: (q) => (q.has(P, 'id') ? [H, P] : [H]),
  define(q) {
    if (!q.has(H, 'checked_at') || !q.has(H, 'project_id')) return undefined;
    const pg = q.dialect === 'postgres';
    const int = pg ? 'bigint' : 'integer';
    const table = `CREATE TABLE IF NOT EXISTS ${pg ? `${SCHEMA}.` : ''}${DAILY} (account_id text NOT NULL, project_id text NOT NULL, model text NOT NULL, day ${pg ? 'date' : 'text'} NOT NULL,
  responses ${int} NOT NULL, visible ${int} NOT NULL, position_sum ${pg ? 'float8' : 'real'} NOT NULL, positioned ${int} NOT NULL, cited ${int} NOT NULL,
  PRIMARY KEY (account_id, project_id, model, day))`;
    return { table, fill: countAll(q), objects: pg ? postgresTriggers(q) : sqliteTriggers(q) };
  },
};

/** Fills the (empty) table: every check of prompts_history counted. */
function countAll(q: Sql): string {
  return `INSERT INTO ${DAILY} (${[...KEY, ...COUNTS].join(', ')}) ${counted(q, 1, { sites: `(${sitesSelect(q)})` })}`;
}

/** The counts of the responses a {@link responsesSelect} keeps, per key, times `sign`. */
function counted(
  q: Sql,
  sign: 1 | -1,
  options: { from?: string; bound?: string; sites: string; oneRow?: boolean },
): string {
  const s = sign === 1 ? '' : '-';
  const from = `FROM (${responsesSelect(q, { ...options, narrow: true })}) r WHERE day IS NOT NULL`;
  // One row (a SQLite row trigger's): its own counts, with no grouping to pay for.
  if (options.oneRow)
    return `SELECT account_id, project_id, model, day, ${s}1, ${s}visible, ${s}COALESCE(position, 0), ${s}(position IS NOT NULL), ${s}cited ${from}`;
  return `SELECT account_id, project_id, model, day, ${s}COUNT(*), ${s}COALESCE(SUM(visible), 0), ${s}COALESCE(SUM(position), 0), ${s}COUNT(position), ${s}COALESCE(SUM(cited), 0)
${from} GROUP BY account_id, project_id, model, day`;
}

/** Adds the counts of `rows` (a {@link counted}) to the table's. */
function addCounts(rows: string): string {
  return `INSERT INTO ${DAILY} (${[...KEY, ...COUNTS].join(', ')}) ${rows}
ON CONFLICT (${KEY.join(', ')}) DO UPDATE SET ${COUNTS.map((c) => `${c} = ${DAILY}.${c} + excluded.${c}`).join(', ')}`;
}

/** One project's rows counted again from prompts_history (its site changed): `r` is its projects_list row. */
function countProjectAgain(q: Sql, r: string): string[] {
  const account = q.account(r, P);
  const id = q.text(r, P, 'id');
  const sameProject = `${q.text('h', H, 'project_id')} = ${id}${q.has(H, 'account_id') ? ` AND ${q.account('h', H)} = ${account}` : ''}`;
  return [
    `DELETE FROM ${DAILY} WHERE account_id = ${account} AND project_id = ${id}`,
    addCounts(counted(q, 1, { bound: sameProject, sites: `(${sitesSelect(q, `${q.text('p', P, 'id')} = ${id}`)})` })),
  ];
}

/** SQLite: row triggers (no WITH inside a trigger, so the SELECTs are written out), each reading its row by rowid. */
function sqliteTriggers(q: Sql): KeptObject[] {
  const ofRow = (row: 'NEW' | 'OLD', sign: 1 | -1) =>
    addCounts(
      counted(q, sign, {
        bound: `h.rowid = ${row}.rowid`,
        sites: `(${sitesSelect(q, `${q.text('p', P, 'id')} = ${q.text(row, H, 'project_id')}`)})`,
        oneRow: true,
      }),
    );
  const emptied = `DELETE FROM ${DAILY} WHERE responses = 0 AND account_id = ${q.account('OLD', H)} AND project_id = ${q.text('OLD', H, 'project_id')}`;
  const trigger = (name: string, when: string, statements: string[]): KeptObject => ({
    name,
    trigger: true,
    sql: `CREATE TRIGGER {{${name}}} ${when} BEGIN\n  ${statements.join(';\n  ')};\nEND`,
  });
  // A check read again as it was (most re-reads) changes no count: its update triggers do not run.
  const changed = RESPONSE_COLUMNS.filter((c) => q.has(H, c))
    .map((c) => `OLD.${q.name(H, c)} IS NOT NEW.${q.name(H, c)}`)
    .join(' OR ');
  const out = [
    trigger('insert', `AFTER INSERT ON ${H}`, [ofRow('NEW', 1)]),
    // The row as it was is read before the change, and as it is after it.
    trigger('update_old', `BEFORE UPDATE ON ${H} WHEN ${changed}`, [ofRow('OLD', -1)]),
    trigger('update_new', `AFTER UPDATE ON ${H} WHEN ${changed}`, [ofRow('NEW', 1), emptied]),
    trigger('delete', `BEFORE DELETE ON ${H}`, [ofRow('OLD', -1), emptied]),
  ];
  if (q.has(P, 'id')) {
    out.push(trigger('site_insert', `AFTER INSERT ON ${P}`, countProjectAgain(q, 'NEW')));
    out.push(trigger('site_delete', `AFTER DELETE ON ${P}`, countProjectAgain(q, 'OLD')));
    if (q.has(P, 'websiteUrl')) {
      const url = q.name(P, 'websiteUrl');
      out.push(
        trigger(
          'site_update',
          `AFTER UPDATE OF ${url} ON ${P} WHEN OLD.${url} IS NOT NEW.${url}`,
          countProjectAgain(q, 'NEW'),
        ),
      );
    }
  }
  return out;
}

/** PostgreSQL: statement triggers over the changed rows (transition tables), and a row trigger for a project's site. */
function postgresTriggers(q: Sql): KeptObject[] {
  const sites = `(${sitesSelect(q)})`;
  const emptied = `DELETE FROM ${DAILY} d USING (SELECT DISTINCT ${q.account('h', H)} AS account_id, ${q.text('h', H, 'project_id')} AS project_id FROM old_rows h) o
      WHERE d.account_id = o.account_id AND d.project_id = o.project_id AND d.responses = 0`;
  const fn = (name: string, body: string[], declare = ''): KeptObject => ({
    name,
    trigger: false,
    sql: `CREATE FUNCTION ${SCHEMA}.{{${name}}}() RETURNS trigger LANGUAGE plpgsql SET search_path = ${SCHEMA} AS $seo_visibility$
${declare ? `DECLARE ${declare}\n` : ''}BEGIN
  ${body.join('\n  ')}
  RETURN NULL;
END
$seo_visibility$`,
  });
  const trigger = (name: string, fnName: string, definition: string): KeptObject => ({
    name,
    trigger: true,
    sql: `CREATE TRIGGER {{${name}}} ${definition} EXECUTE FUNCTION ${SCHEMA}.{{${fnName}}}()`,
  });
  const on = (table: string) => `${SCHEMA}.${table}`;
  const out = [
    fn('fn', [
      `IF TG_OP IN ('UPDATE', 'DELETE') THEN ${addCounts(counted(q, -1, { from: 'old_rows', sites }))}; END IF;`,
      `IF TG_OP IN ('INSERT', 'UPDATE') THEN ${addCounts(counted(q, 1, { from: 'new_rows', sites }))}; END IF;`,
      `IF TG_OP IN ('UPDATE', 'DELETE') THEN ${emptied}; END IF;`,
    ]),
    trigger('insert', 'fn', `AFTER INSERT ON ${on(H)} REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT`),
    trigger(
      'update',
      'fn',
      `AFTER UPDATE ON ${on(H)} REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT`,
    ),
    trigger('delete', 'fn', `AFTER DELETE ON ${on(H)} REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT`),
    // A TRUNCATE runs no delete trigger: without these, the counts of checks gone would stay.
    fn('truncate_fn', [`DELETE FROM ${DAILY};`]),
    trigger('truncate', 'truncate_fn', `AFTER TRUNCATE ON ${on(H)} FOR EACH STATEMENT`),
  ];
  if (q.has(P, 'id')) {
    out.push(fn('site_truncate_fn', [`DELETE FROM ${DAILY};`, `${countAll(q)};`]));
    out.push(trigger('site_truncate', 'site_truncate_fn', `AFTER TRUNCATE ON ${on(P)} FOR EACH STATEMENT`));
    out.push(
      fn(
        'site_fn',
        ["IF TG_OP = 'DELETE' THEN r := OLD; ELSE r := NEW; END IF;", ...countProjectAgain(q, 'r').map((s) => `${s};`)],
        `r ${on(P)}%ROWTYPE;`,
      ),
    );
    out.push(trigger('site_change', 'site_fn', `AFTER INSERT OR DELETE ON ${on(P)} FOR EACH ROW`));
    if (q.has(P, 'websiteUrl')) {
      const url = q.name(P, 'websiteUrl');
      out.push(
        trigger(
          'site_update',
          'site_fn',
          `AFTER UPDATE OF ${url} ON ${on(P)} FOR EACH ROW WHEN (OLD.${url} IS DISTINCT FROM NEW.${url})`,
        ),
      );
    }
  }
  return out;
}
