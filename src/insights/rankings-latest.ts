/**
 * `rankings_latest`: each keyword's latest check of rankings_history (its day, keyword and four
 * positions), kept by the database itself, in PostgreSQL.
 *
 * `rank_changes` needs, per keyword, its latest check and the check in force at the period's start.
 * Finding the latest meant one pass over the whole history's key (as long as the benchmark's peer,
 * docs/benchmarks.md) and a seek per keyword; this table holds the answer already, a row per
 * keyword, and only the start check is sought. SQLite answers within target without it (a pass
 * over its key index costs less there against the same peer), so it is made in PostgreSQL only.
 *
 * Statement triggers keep it (kept-table.ts): the keywords a statement wrote or deleted are looked
 * up again, each with one seek on the history's key. A keyword's row is only ever replaced by a
 * check of the same day or later when rows are inserted, so two transactions inserting checks of
 * one keyword leave the later one, whichever commits first.
 */
import type { Sql } from './dialect.js';
import { type KeptObject, type KeptTable, SCHEMA } from './kept-table.js';
import { LATEST, LATEST_CHECK, LATEST_COLUMNS, LATEST_KEY, historyCheck } from './views/rank-changes.js';
import { DEVICES } from './views/view.js';

const H = 'rankings_history';

/** The table, for the kept-table machinery: in a PostgreSQL store with rankings_history only. @internal */
export const rankingsLatest: KeptTable = {
  name: LATEST,
  columns: Object.fromEntries(
    LATEST_COLUMNS.map(
      (c) => [c, c === 'day' ? 'date' : (DEVICES as readonly string[]).includes(c) ? 'number' : 'text'] as const,
    ),
  ),
  key: LATEST_KEY,
  holds:
    "Each keyword's latest rankings_history check, per account (empty in a store of one account), project and keyword, kept by triggers in the same transaction as each check (PostgreSQL): its day, keyword text and positions (null when not ranking)",
  what: "The keywords' latest ranking checks",
  without: 'rank_changes reads rankings_history',
  follows: () => [H],
  define(q) {
    // A check_date widened to text (a value that was no day) sorts otherwise than its days: the
    // latest text may have no day, and the view then finds no period end for its project. Such a
    // store keeps no table, and rank_changes reads rankings_history as the view does.
    if (q.dialect !== 'postgres' || q.typeOf(H, 'check_date') !== 'date' || !q.has(H, 'keyword_id')) return undefined;
    const table = `CREATE TABLE IF NOT EXISTS ${SCHEMA}.${LATEST} (account_id text NOT NULL, project_id text NOT NULL, keyword_id text NOT NULL, day date, keyword text,
  ${DEVICES.map((d) => `${d} integer`).join(', ')}, PRIMARY KEY (account_id, project_id, keyword_id))`;
    const keys = `SELECT DISTINCT ${keyOf(q, 'h')} FROM rankings_history h`;
    const fill = `INSERT INTO ${LATEST} (${LATEST_COLUMNS.join(', ')}) SELECT k.account_id, k.project_id, k.keyword_id, x.* FROM (${keys}) k
  CROSS JOIN LATERAL (${historyCheck(q, 'k')}) x`;
    return { table, fill, objects: postgresTriggers(q) };
  },
};

/** A history row's key, named as the table's. */
function keyOf(q: Sql, alias: string): string {
  return `${q.account(alias, H)} AS account_id, ${q.text(alias, H, 'project_id')} AS project_id, ${q.text(alias, H, 'keyword_id')} AS keyword_id`;
}

/**
 * The latest check of each keyword `rows` (a transition table) holds, written over the table's row
 * where it differs (a check read again unchanged writes nothing); `onlyLater`: not over a row of a
 * later day (rows were only added).
 */
function lookAgain(q: Sql, rows: string, onlyLater: boolean): string {
  const set = LATEST_CHECK.map((c) => `${c} = excluded.${c}`).join(', ');
  const differs = `(${LATEST_CHECK.map((c) => `l.${c}`).join(', ')}) IS DISTINCT FROM (${LATEST_CHECK.map((c) => `excluded.${c}`).join(', ')})`;
  return `INSERT INTO ${LATEST} AS l (${LATEST_COLUMNS.join(', ')})
    SELECT k.account_id, k.project_id, k.keyword_id, x.* FROM (SELECT DISTINCT ${keyOf(q, 'h')} FROM ${rows} h) k
    CROSS JOIN LATERAL (${historyCheck(q, 'k')}) x
    ON CONFLICT (${LATEST_KEY.join(', ')}) DO UPDATE SET ${set} WHERE ${differs}${onlyLater ? ' AND (excluded.day >= l.day OR l.day IS NULL)' : ''}`;
}

/** Drops the rows of the keywords `keys` (a SELECT of keys) names that have no check left. */
function forgetGone(q: Sql, keys: string): string {
  return `DELETE FROM ${LATEST} l USING (${keys}) k
    WHERE l.account_id = k.account_id AND l.project_id = k.project_id AND l.keyword_id = k.keyword_id
      AND NOT EXISTS (SELECT 1 FROM (${historyCheck(q, 'k')}) x)`;
}

/**
 * Locks the table's rows of the keywords `rows` holds, in key order (two statements never lock
 * them in opposite orders), before they are looked up again: a transaction that changed one of
 * them commits first, and the look-up, a statement of its own, then sees its change. Without it, a
 * check deleted by another transaction was written back as the latest once that one committed.
 */
function lockKeywords(q: Sql, rows: string): string {
  return `PERFORM 1 FROM ${LATEST} l WHERE (l.account_id, l.project_id, l.keyword_id) IN (SELECT ${keyOf(q, 'h')} FROM ${rows} h)
    ORDER BY l.account_id, l.project_id, l.keyword_id FOR UPDATE OF l`;
}

/** One function for the statement triggers (over their transition tables), and a TRUNCATE's. */
function postgresTriggers(q: Sql): KeptObject[] {
  const on = `${SCHEMA}.${H}`;
  // An update's keywords: those its rows had and those they have.
  const updated = '(SELECT * FROM old_rows UNION ALL SELECT * FROM new_rows)';
  const trigger = (name: string, definition: string): KeptObject => ({
    name,
    trigger: true,
    sql: `CREATE TRIGGER {{${name}}} ${definition} FOR EACH STATEMENT EXECUTE FUNCTION ${SCHEMA}.{{fn}}()`,
  });
  return [
    {
      name: 'fn',
      trigger: false,
      sql: `CREATE FUNCTION ${SCHEMA}.{{fn}}() RETURNS trigger LANGUAGE plpgsql SET search_path = ${SCHEMA} AS $seo_visibility$
BEGIN
  IF TG_OP = 'INSERT' THEN ${lockKeywords(q, 'new_rows')}; ${lookAgain(q, 'new_rows', true)};
  ELSIF TG_OP = 'UPDATE' THEN ${lockKeywords(q, updated)};
    ${lookAgain(q, updated, false)};
    ${forgetGone(q, `SELECT ${keyOf(q, 'h')} FROM old_rows h EXCEPT SELECT ${keyOf(q, 'h')} FROM new_rows h`)};
  ELSIF TG_OP = 'DELETE' THEN ${lockKeywords(q, 'old_rows')}; ${lookAgain(q, 'old_rows', false)};
    ${forgetGone(q, `SELECT DISTINCT ${keyOf(q, 'h')} FROM old_rows h`)};
  ELSE DELETE FROM ${LATEST};
  END IF;
  RETURN NULL;
END
$seo_visibility$`,
    },
    trigger('insert', `AFTER INSERT ON ${on} REFERENCING NEW TABLE AS new_rows`),
    trigger('update', `AFTER UPDATE ON ${on} REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows`),
    trigger('delete', `AFTER DELETE ON ${on} REFERENCING OLD TABLE AS old_rows`),
    // A TRUNCATE runs no delete trigger: without this one, the keywords gone would stay.
    trigger('truncate', `AFTER TRUNCATE ON ${on}`),
  ];
}
