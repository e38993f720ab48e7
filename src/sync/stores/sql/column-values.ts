import type { ColumnType } from '../../datasets/datasets.js';

/**
 * How a SQL store holds a value its column cannot hold exactly, the same rule in SQLite and
 * PostgreSQL (docs/warehouse.md, "Values a column cannot hold"). No value the API sends may stop a
 * copy, and none may be changed silently:
 *
 * - Every table has a `_raw` column: JSON text (field → value as the API sent it) of the fields of
 *   the row whose column does not hold the value exactly, or that have no column. NULL when every
 *   value is in its column. JSON text, not `jsonb`: it escapes NUL and lone surrogates, which
 *   PostgreSQL's `jsonb` refuses, so it is lossless for every value.
 * - The typed column keeps the nearest value it can hold, so views and dashboards keep working:
 *   text with NUL (PostgreSQL) or a lone surrogate (both) has U+FFFD in their place; a value of
 *   another type in a text column is its JSON text; a day-and-time in a date column is its day;
 *   anything else a column cannot hold (`"n/a"` in a number column, `""` in a timestamp) is NULL.
 * - A key column must hold every value (a row cannot be keyed by NULL): a date or timestamp key
 *   column that receives a value it cannot hold is widened to text (PostgreSQL only; SQLite
 *   columns are untyped).
 * - A table has at most {@link MAX_COLUMNS} columns: fields past that (a record of 1,700 fields;
 *   PostgreSQL stops at 1,600 columns and 8 kB rows, SQLite at 2,000 columns) go to `_raw` only.
 *
 * Why `_raw` and not widening every column: widening `desktop_position` to text because one record
 * said `"n/a"` would break every query and view that does arithmetic on it, for every account of a
 * fleet schema; and PostgreSQL cannot widen a column a view uses without dropping the view.
 * @internal
 */
export const RAW_COLUMN = '_raw';

/** Columns per table in the SQL stores, counting the store's own (`_raw`, `account_id`, …). @internal */
export const MAX_COLUMNS = 250;

/** Which SQL store a value goes to: SQLite columns take any type, PostgreSQL's are typed. @internal */
export type SqlDialect = 'sqlite' | 'postgres';

/** Whether a column of `type` holds `value` exactly (null always fits). @internal */
export function holds(value: unknown, type: ColumnType, dialect: SqlDialect): boolean {
  if (value === null || value === undefined) return true;
  if (dialect === 'sqlite') return typeof value !== 'string' || wellFormed(value);
  switch (type) {
    case 'text':
      return typeof value === 'string' && pgText(value);
    case 'number':
      return typeof value === 'number';
    case 'boolean':
      return typeof value === 'boolean';
    case 'timestamp':
      return typeof value === 'string' && isIsoTime(value);
    case 'date':
      return typeof value === 'string' && isIsoDay(value);
    case 'json':
      return jsonHolds(value);
  }
}

/** The nearest value a column of `type` holds, for a value it does not hold exactly (see {@link RAW_COLUMN}). @internal */
export function nearest(value: unknown, type: ColumnType, dialect: SqlDialect): unknown {
  if (dialect === 'sqlite') return typeof value === 'string' ? toWellFormed(value) : value;
  switch (type) {
    case 'text':
      return cleanText(typeof value === 'string' ? value : JSON.stringify(value));
    case 'json':
      return cleanJson(value);
    case 'date':
      return typeof value === 'string' && isIsoDay(value.slice(0, 10)) && isIsoTime(value) ? value.slice(0, 10) : null;
    default:
      return null;
  }
}

/**
 * An ISO 8601 day, or day and time (`T` or a space, optional seconds, up to 6 decimals: what
 * `timestamptz` keeps, optional zone), of a real calendar day, years 0001–9999. PostgreSQL would take
 * more (`now`, `yesterday`, `Jan 5`), but read as the moment of the insert, not as the API meant it.
 * @internal
 */
export function isIsoTime(text: string): boolean {
  const m =
    /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,6})?)?(?:[Zz]|[+-](\d{2})(?::?(\d{2}))?)?)?$/.exec(
      text,
    );
  if (!m || !isIsoDay(m[1] as string)) return false;
  const [hour, minute, second, zoneHour, zoneMinute] = m.slice(2).map((v) => Number(v ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
  ];
  return hour <= 23 && minute <= 59 && second <= 59 && zoneHour <= 15 && zoneMinute <= 59;
}

/** `YYYY-MM-DD` of a real calendar day (not `2026-02-30`), years 0001–9999. @internal */
export function isIsoDay(text: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  const date = new Date(Date.UTC(2000, month - 1, day));
  date.setUTCFullYear(year);
  return date.getUTCDate() === day;
}

/**
 * A timestamp as PostgreSQL is sent it: a time without a zone is UTC (the API's times are; the
 * session's zone would otherwise decide), a bare day is its UTC midnight.
 * @internal
 */
export function utcTime(text: string): string {
  if (!text.includes('T') && !text.includes(' ')) return `${text}T00:00:00Z`;
  return /(?:[Zz]|[+-]\d{2}(?::?\d{2})?)$/.test(text.slice(10)) ? text : `${text}Z`;
}

/** A surrogate without its pair (JSON's `\ud800` escape can make one; UTF-8 cannot encode it). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** `String.prototype.isWellFormed` (ES2024, past this package's ES2023 library). */
function wellFormed(text: string): boolean {
  LONE_SURROGATE.lastIndex = 0;
  return !LONE_SURROGATE.test(text);
}

function toWellFormed(text: string): string {
  return text.replace(LONE_SURROGATE, '\uFFFD');
}

/**
 * A progress entry's key as a store's text column holds it. Keys hold server ids, and a text column
 * cannot hold NUL (PostgreSQL) or a lone surrogate (both; SQLite would store U+FFFD, and the entry
 * would be lost under another key): such a key is kept as `~` + its JSON (escaped, plain ASCII; no key
 * of the sync starts with `~`), and {@link fromStateKey} reads it back exactly.
 * @internal
 */
export function stateKey(key: string, dialect: SqlDialect): string {
  return holds(key, 'text', dialect) && !key.startsWith('~') ? key : `~${JSON.stringify(key)}`;
}

/** The key {@link stateKey} stored. @internal */
export function fromStateKey(stored: string): string {
  return stored.startsWith('~') ? (JSON.parse(stored.slice(1)) as string) : stored;
}

/** PostgreSQL text holds neither NUL nor (through node-postgres's UTF-8) a lone surrogate. */
function pgText(text: string): boolean {
  return wellFormed(text) && !text.includes('\u0000');
}

function cleanText(text: string): string {
  return toWellFormed(text).replaceAll('\u0000', '\uFFFD');
}

function jsonHolds(value: unknown): boolean {
  if (typeof value === 'string') return pgText(value);
  if (value === null || typeof value !== 'object') return true;
  if (Array.isArray(value)) return value.every(jsonHolds);
  return Object.entries(value).every(([k, v]) => pgText(k) && jsonHolds(v));
}

function cleanJson(value: unknown): unknown {
  if (typeof value === 'string') return cleanText(value);
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(cleanJson);
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [cleanText(k), cleanJson(v)]));
}

/**
 * One row as a SQL store writes it: column → value (each held by its column, or its nearest), and
 * `raw`, field → exact value of what the columns do not hold (empty when there is none; written as
 * {@link rawText}). `columnOf` gives a field's column, or undefined when the table has no column for it.
 * @internal
 */
export function splitRow(
  row: Readonly<Record<string, unknown>>,
  columnOf: (field: string) => string | undefined,
  typeOf: (column: string) => ColumnType,
  dialect: SqlDialect,
): { cells: Map<string, unknown>; raw: Map<string, unknown> } {
  const cells = new Map<string, unknown>();
  // A Map, not an object: a field named `__proto__` must stay a field.
  const raw = new Map<string, unknown>();
  for (const field in row) {
    const value = row[field];
    const column = columnOf(field);
    if (column === undefined) {
      if (value !== null && value !== undefined) raw.set(field, value);
      continue;
    }
    const type = typeOf(column);
    if (holds(value, type, dialect)) cells.set(column, value);
    else {
      cells.set(column, nearest(value, type, dialect));
      raw.set(field, value);
    }
  }
  return { cells, raw };
}

/** The `_raw` column's value: JSON text of the exact values, or null when there are none. @internal */
export function rawText(raw: ReadonlyMap<string, unknown>): string | null {
  return raw.size ? JSON.stringify(Object.fromEntries(raw)) : null;
}
