/**
 * The two SQL dialects the insight views are written for. A view is defined once (views.ts) against
 * this small vocabulary; everything that differs between SQLite and PostgreSQL lives here.
 * @internal
 */
export type DialectName = 'sqlite' | 'postgres';

/** A table's columns as the database has them: lower-cased name → real name and declared type. @internal */
export type TableColumns = ReadonlyMap<string, ReadonlyMap<string, { name: string; type: string }>>;

/**
 * Which rows a query is for: one account's, one project's, or both. A scoped SELECT filters every
 * table it reads where it reads it (on the raw key columns, so the primary key's index is used),
 * with `$account` and `$project` marking the parameters ({@link bindScope} binds them): a query for
 * one project never reads the others, whatever the planner makes of the view around it.
 * @internal
 */
export interface Scope {
  account?: boolean | undefined;
  project?: boolean | undefined;
  /** One AI model's responses (`$model`), where the table has a `model` column. */
  model?: boolean | undefined;
  /**
   * Only the projects a `chosen_projects(project_id)` CTE lists, which the caller defines around
   * the SELECT (a tool that needs the first few projects' rows reads only theirs).
   */
  chosenProjects?: boolean | undefined;
}

/**
 * Builds SQL for one dialect over the columns that exist. Columns are looked up case-insensitively
 * and quoted as the database spells them; a column the store has not created yet (a field the
 * server never sent, or `_deleted_at` before a store that marks deletes) reads as NULL, so a view
 * never fails on an older or smaller store.
 * @internal
 */
export class Sql {
  constructor(
    readonly dialect: DialectName,
    private readonly columns: TableColumns,
    readonly scope: Scope = {},
  ) {}

  /**
   * The account a row belongs to, as text: `account_id` in a fleet schema, `''` in a store of one
   * account (whose tables lack the column). Every view partitions and joins by it, so accounts
   * sharing a schema are never mixed.
   */
  account(alias: string, table: string): string {
    // PostgreSQL refuses a bare constant in GROUP BY and PARTITION BY: a cast is an expression.
    return this.has(table, 'account_id')
      ? this.text(alias, table, 'account_id')
      : this.dialect === 'sqlite'
        ? "''"
        : "''::text";
  }

  /**
   * The GROUP BY list of the account (where the table has one) and `columns` of `table`. A store
   * of one account groups by the columns alone: a constant in the list hides from SQLite that the
   * rows come in the order of the key index, and it sorts them all instead.
   */
  groupKeys(alias: string, table: string, columns: readonly string[]): string {
    return [
      ...(this.has(table, 'account_id') ? [this.text(alias, table, 'account_id')] : []),
      ...columns.map((c) => this.text(alias, table, c)),
    ].join(', ');
  }

  /** The account key as the views output it: null in a store of one account. */
  accountOut(expr: string): string {
    return `NULLIF(${expr}, '')`;
  }

  /**
   * The conditions that keep only the scope's rows of `table` (see {@link Scope}); `1 = 1` when
   * the query is for everything. `projectColumn` names the table's project column.
   */
  scoped(alias: string, table: string, projectColumn = 'project_id'): string {
    const conditions: string[] = [];
    if (this.scope.account)
      conditions.push(
        this.has(table, 'account_id') ? `${this.col(alias, table, 'account_id')} = $account` : `'' = $account`,
      );
    if (this.scope.project) conditions.push(`${this.col(alias, table, projectColumn)} = $project`);
    if (this.scope.chosenProjects)
      conditions.push(`${this.col(alias, table, projectColumn)} IN (SELECT project_id FROM chosen_projects)`);
    if (this.scope.model && this.has(table, 'model')) conditions.push(`${this.col(alias, table, 'model')} = $model`);
    return conditions.length ? conditions.join(' AND ') : '1 = 1';
  }

  /** Whether `table` has `column`. */
  has(table: string, column: string): boolean {
    return this.columns.get(table)?.has(column.toLowerCase()) ?? false;
  }

  /** The column's type as the database names it (information_schema's data_type; SQLite's declared type), or undefined when the table lacks it. */
  typeOf(table: string, column: string): string | undefined {
    return this.columns.get(table)?.get(column.toLowerCase())?.type;
  }

  /** `alias."Column"`, or NULL when the table lacks it. */
  col(alias: string, table: string, column: string): string {
    const name = this.name(table, column);
    return name === 'NULL' ? name : `${alias}.${name}`;
  }

  /** `"Column"` as the table spells it (a trigger's `OLD.` and `NEW.` take it), or NULL when the table lacks it. */
  name(table: string, column: string): string {
    const found = this.columns.get(table)?.get(column.toLowerCase());
    return found ? quote(found.name) : 'NULL';
  }

  /** The column as text (ids compare as text in both dialects, whatever type the store chose). */
  text(alias: string, table: string, column: string): string {
    const c = this.col(alias, table, column);
    return this.dialect === 'sqlite' || c === 'NULL' ? c : `(${c})::text`;
  }

  /**
   * The UTC day of a date or timestamp column: a `YYYY-MM-DD` text in SQLite, a `date` in
   * PostgreSQL (a timestamptz is read at UTC, whatever the session's time zone).
   */
  day(alias: string, table: string, column: string): string {
    const found = this.columns.get(table)?.get(column.toLowerCase());
    if (!found) return this.dialect === 'sqlite' ? 'NULL' : 'NULL::date';
    return this.dayOf(`${alias}.${quote(found.name)}`, table, column);
  }

  /**
   * The UTC day of `expr`, a value of `table.column` as stored (the column itself, or an aggregate
   * of it such as `MAX(h.check_date)`: the stored values sort as their days do, so the day of the
   * latest value is the latest day).
   */
  dayOf(expr: string, table: string, column: string): string {
    const found = this.columns.get(table)?.get(column.toLowerCase());
    if (!found) return this.dialect === 'sqlite' ? 'NULL' : 'NULL::date';
    if (this.dialect === 'sqlite') return `date(${expr})`;
    if (/^timestamp/.test(found.type)) return `((${expr}) AT TIME ZONE 'UTC')::date`;
    if (found.type === 'date') return expr;
    return `(CASE WHEN (${expr})::text ~ '^\\d{4}-\\d{2}-\\d{2}' THEN left((${expr})::text, 10)::date END)`;
  }

  /**
   * `alias.column`'s day is before `day` (a day expression), written on the column as stored so
   * the table's key index is used: a seek, not a scan. SQLite stores dates and timestamps as ISO
   * text, which sorts as its days do; PostgreSQL's date and timestamp columns compare with a day.
   * Any other type is converted row by row.
   */
  dayBefore(alias: string, table: string, column: string, day: string): string {
    return this.#dayCompare(alias, table, column, '<', day);
  }

  /** `alias.column`'s day is `day` or later, written on the column as stored as {@link dayBefore} is (so a key index seeks it). */
  dayFrom(alias: string, table: string, column: string, day: string): string {
    return this.#dayCompare(alias, table, column, '>=', day);
  }

  #dayCompare(alias: string, table: string, column: string, op: '<' | '>=', day: string): string {
    const found = this.columns.get(table)?.get(column.toLowerCase());
    if (!found) return 'FALSE';
    const c = `${alias}.${quote(found.name)}`;
    if (this.dialect === 'sqlite') return `${c} ${op} ${day}`;
    if (found.type === 'date') return `${c} ${op} ${day}`;
    if (found.type === 'timestamp with time zone') return `${c} ${op} ((${day})::timestamp AT TIME ZONE 'UTC')`;
    if (/^timestamp/.test(found.type)) return `${c} ${op} (${day})::timestamp`;
    return `${this.day(alias, table, column)} ${op} ${day}`;
  }

  /**
   * `alias.column`'s day is from `first` up to, not including, `after` (day expressions; `firstText`
   * and `afterText` the same days as YYYY-MM-DD text). Compared on the value as stored, so only the
   * rows in range are converted to a day: a date or timestamp as {@link dayBefore} does; a text as
   * text (one that starts with an ISO date sorts as its day does), and then by its day, so a text
   * that is no date never counts. Converting every row first (in PostgreSQL a pattern test and a
   * cast per text value) cost more than reading the table.
   */
  dayWithin(alias: string, table: string, column: string, days: DayRange): string {
    const found = this.columns.get(table)?.get(column.toLowerCase());
    if (!found) return 'FALSE';
    const c = `${alias}.${quote(found.name)}`;
    const isDay = this.dialect === 'postgres' && (found.type === 'date' || /^timestamp/.test(found.type));
    if (isDay || this.dialect === 'sqlite') {
      const range = `${this.dayFrom(alias, table, column, days.first)} AND ${this.dayBefore(alias, table, column, days.after)}`;
      return isDay ? range : `${range} AND ${this.day(alias, table, column)} IS NOT NULL`;
    }
    // A text that starts with an ISO date compares with the days' text as its day does (a longer
    // text after an equal start sorts after it), byte by byte whatever the database's collation.
    // Inside the CASE, the day's test depends on the range, so PostgreSQL cannot run it first, on
    // every row of the table, as it does with a condition on one table's columns alone.
    const head = `(${c})::text COLLATE "C"`;
    return `${c} IS NOT NULL AND CASE WHEN ${head} >= ${days.firstText} AND ${head} < ${days.afterText} THEN ${this.day(alias, table, column)} IS NOT NULL ELSE FALSE END`;
  }

  /**
   * A cheap bound for {@link dayWithin}: `alias.column`'s day may be `first` or later (`firstText`
   * the same day as text). True for every row dayWithin keeps with that `first` or a later one;
   * a condition on the table alone, so it can narrow the scan before any join. For prompts_history's
   * checked_at (a timestamp whose SQLite text may carry a time zone), see `checkedMayBeFrom` in views/ai-visibility.ts.
   */
  mayBeFrom(alias: string, table: string, column: string, first: string, firstText: string): string {
    const found = this.columns.get(table)?.get(column.toLowerCase());
    if (!found) return 'FALSE';
    const isDay = this.dialect === 'postgres' && (found.type === 'date' || /^timestamp/.test(found.type));
    if (isDay || this.dialect === 'sqlite') return this.dayFrom(alias, table, column, first);
    return `(${alias}.${quote(found.name)})::text COLLATE "C" >= ${firstText}`;
  }

  /**
   * {@link dayText} of `alias.column`'s day, for a row {@link dayWithin} kept: a PostgreSQL text is
   * then an ISO date, whose first 10 characters are that text (no pattern test, cast and format again).
   */
  dayTextWithin(alias: string, table: string, column: string): string {
    const found = this.columns.get(table)?.get(column.toLowerCase());
    const isDay = this.dialect === 'postgres' && found && (found.type === 'date' || /^timestamp/.test(found.type));
    if (!found || isDay || this.dialect === 'sqlite') return this.dayText(this.day(alias, table, column));
    return `left((${alias}.${quote(found.name)})::text, 10)`;
  }

  /** The day after `day`. */
  nextDay(day: string): string {
    return this.dialect === 'sqlite' ? `date(${day}, '+1 days')` : `(${day} + 1)`;
  }

  /** The greatest text, compared byte by byte in both databases (a PostgreSQL collation could order packed values otherwise). */
  maxText(expr: string): string {
    return this.dialect === 'sqlite' ? `MAX(${expr})` : `MAX((${expr}) COLLATE "C")`;
  }

  /** A whole number from 0 to 9,999,999 as 7 digits (null reads 0), for text that sorts and unpacks by position. */
  digits7(expr: string): string {
    return this.dialect === 'sqlite'
      ? `printf('%07d', MIN(COALESCE(${expr}, 0), 9999999))`
      : `lpad(LEAST(COALESCE(${expr}, 0), 9999999)::int::text, 7, '0')`;
  }

  /** The whole number written by {@link digits7} at 1-based `start` of `text`; 0 reads null. */
  undigits7(text: string, start: number): string {
    return this.dialect === 'sqlite'
      ? `NULLIF(CAST(substr(${text}, ${start}, 7) AS INTEGER), 0)`
      : `NULLIF(substr(${text}, ${start}, 7)::int, 0)`;
  }

  /** The number {@link digits7} then {@link undigits7} give back, without the text: a value kept as a number reads as a packed one. */
  whole7(expr: string): string {
    return this.dialect === 'sqlite'
      ? `NULLIF(CAST(MIN(COALESCE(${expr}, 0), 9999999) AS INTEGER), 0)`
      : `NULLIF(LEAST(COALESCE(${expr}, 0), 9999999)::int, 0)`;
  }

  /** A day as the 10 characters YYYY-MM-DD, and back. */
  packDay(day: string): string {
    return this.dialect === 'sqlite' ? day : `to_char(${day}, 'YYYY-MM-DD')`;
  }

  unpackDay(text: string): string {
    return this.dialect === 'sqlite' ? `substr(${text}, 1, 10)` : `substr(${text}, 1, 10)::date`;
  }

  /** A day minus `n` days (n an integer expression). */
  minusDays(day: string, n: string): string {
    return this.dialect === 'sqlite' ? `date(${day}, '-' || (${n}) || ' days')` : `(${day} - (${n})::int)`;
  }

  /** A day as `YYYY-MM-DD` text, for output. */
  dayText(day: string): string {
    return this.dialect === 'sqlite' ? day : `to_char(${day}, 'YYYY-MM-DD')`;
  }

  /** A number from a column of any type (integers, reals, numeric text, jsonb numbers). */
  num(expr: string): string {
    return this.dialect === 'sqlite' ? `CAST(${expr} AS REAL)` : `(${expr})::text::float8`;
  }

  /**
   * {@link num} of a column, converted directly where PostgreSQL already holds a number (the same
   * value: a numeric reaches float8 through its text either way), not through text row by row.
   */
  numCol(alias: string, table: string, column: string): string {
    const c = this.col(alias, table, column);
    const type = this.columns.get(table)?.get(column.toLowerCase())?.type ?? '';
    if (this.dialect === 'postgres' && NUMERIC_TYPES.has(type)) return `(${c})::float8`;
    return this.num(c);
  }

  /** {@link flag} of a column; a PostgreSQL boolean is tested as it is, not through its text row by row. */
  flagCol(alias: string, table: string, column: string): string {
    const c = this.col(alias, table, column);
    const type = this.columns.get(table)?.get(column.toLowerCase())?.type ?? '';
    if (this.dialect === 'postgres' && type === 'boolean') return `(CASE WHEN ${c} THEN 1 ELSE 0 END)`;
    return this.flag(c);
  }

  /** 1 when a boolean-ish column is true (true, 1, 't', 'true'), else 0. */
  flag(expr: string): string {
    return this.dialect === 'sqlite'
      ? `(CASE WHEN ${expr} IN (1, '1', 'true') THEN 1 ELSE 0 END)`
      : `(CASE WHEN lower((${expr})::text) IN ('1', 't', 'true') THEN 1 ELSE 0 END)`;
  }

  /** An integer for output (PostgreSQL's bigint and numeric reach JavaScript as strings). */
  int(expr: string): string {
    return this.dialect === 'sqlite' ? `CAST(${expr} AS INTEGER)` : `(${expr})::int`;
  }

  /** `expr` rounded to `digits` decimals, as a plain number. */
  round(expr: string, digits: number): string {
    return this.dialect === 'sqlite' ? `ROUND(${expr}, ${digits})` : `ROUND((${expr})::numeric, ${digits})::float8`;
  }

  /** Whether the text of `haystack` contains `needle` (both lower-cased). */
  contains(haystack: string, needle: string): string {
    return this.dialect === 'sqlite'
      ? `(instr(lower(${haystack}), ${needle}) > 0)`
      : `(strpos(lower((${haystack})::text), ${needle}) > 0)`;
  }

  /** `alias._deleted_at IS NULL` where the table marks deletes; rows of older stores all count. */
  current(alias: string, table: string): string {
    return this.has(table, '_deleted_at') ? `${this.col(alias, table, '_deleted_at')} IS NULL` : '1 = 1';
  }

  /** `WITH periods(period_days) AS (VALUES (7), (28))` for the given lengths. */
  periods(days: readonly number[]): string {
    return `periods(period_days) AS (VALUES ${days.map((d) => `(${Math.trunc(d)})`).join(', ')})`;
  }
}

/** A range of days for {@link Sql.dayWithin}: each bound as a day expression and as YYYY-MM-DD text. @internal */
export interface DayRange {
  first: string;
  after: string;
  firstText: string;
  afterText: string;
}

/** PostgreSQL's number types (information_schema's data_type), read as float8 directly. */
const NUMERIC_TYPES = new Set(['smallint', 'integer', 'bigint', 'numeric', 'real', 'double precision']);

/**
 * Replaces the `$account`, `$project` and `$model` marks of a scoped SELECT with `?` and lists the values in
 * the order the marks appear (both dialects bind `?` by position). `lists` adds marks for lists of
 * values, each written `?, ?, …` (for `IN (…)`): ids are the server's text, bound, never pasted into
 * the statement. Text inside a string literal, a quoted name or a comment is never a mark (a constant may
 * hold `$project`).
 * @example `bindScope('… WHERE p = $project AND k IN ($keywords)', { project: 'p1' }, { keywords: ['a', 'b'] })`
 * gives `… WHERE p = ? AND k IN (?, ?)` and the parameters `['p1', 'a', 'b']`.
 * @internal
 */
export function bindScope(
  sql: string,
  values: { account?: string | undefined; project?: string | undefined; model?: string | undefined },
  lists: Readonly<Record<string, readonly unknown[]>> = {},
): { sql: string; params: unknown[] } {
  const params: unknown[] = [];
  const names = ['account', 'project', 'model', ...Object.keys(lists).filter((n) => /^\w+$/.test(n))];
  // A literal ('…', a quote doubled inside), a quoted name and a comment (whose apostrophes would
  // otherwise open a literal) are matched first and kept as they are.
  const marks = new RegExp(
    `'(?:[^']|'')*'|"(?:[^"]|"")*"|--[^\\n]*|/\\*[\\s\\S]*?\\*/|\\$(${names.join('|')})\\b`,
    'g',
  );
  const text = sql.replace(marks, (whole, name: string | undefined) => {
    if (name === undefined) return whole;
    const list = lists[name];
    if (list === undefined) {
      params.push(values[name as 'account' | 'project' | 'model'] ?? null);
      return '?';
    }
    if (!list.length) throw new Error(`bindScope: the list $${name} is empty (IN () is not SQL)`);
    params.push(...list);
    return list.map(() => '?').join(', ');
  });
  return { sql: text, params };
}

/**
 * A text as a SQL string literal (both dialects double a single quote).
 * @example `sqlLiteral("O'Brien")` is `'O''Brien'`
 * @internal
 */
export function sqlLiteral(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

/** Quotes an identifier (both dialects use double quotes). */
export function quote(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
