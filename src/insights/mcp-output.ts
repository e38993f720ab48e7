import { STORE_TIMESTAMPS } from './store-timestamps.js';

/**
 * What a tool's result looks like to the agent: JSON that fits its context. Every row list is cut so
 * the whole text stays under the size cap (rows may be short while a value is huge), and says so;
 * a timestamp reads the same from either store (ISO 8601 in UTC, with milliseconds), and a BigInt
 * is a number where exact. `scrub` (the API key's mask) runs on the whole text before any cut: a
 * secret cut through its middle no longer matches it, and its first part would reach the agent.
 * @internal
 */
export function toolText(result: unknown, maxBytes: number, scrub: (text: string) => string = (t) => t): string {
  const text = scrub(JSON.stringify(result, jsonValue));
  if (byteLength(text) <= maxBytes) return text;
  const clean: unknown = JSON.parse(text);
  if (isRecord(clean)) {
    const cut = JSON.stringify(fitted(clean, maxBytes));
    if (byteLength(cut) <= maxBytes) return cut;
  }
  // The bulk is not in a top-level list (an api reply's nested data): the start of its JSON text.
  const frame = { truncated: true, note: sizeNote(maxBytes), json_start: '' };
  let start = text.slice(0, Math.max(0, maxBytes - byteLength(JSON.stringify(frame))));
  while (start && byteLength(JSON.stringify({ ...frame, json_start: start })) > maxBytes)
    start = start.slice(0, Math.floor(start.length * 0.9));
  return JSON.stringify({ ...frame, json_start: start });
}

/**
 * A prompt's message whole under the size cap: the question `ask` first, then `data` as JSON cut
 * (rows first, as a tool result) to the bytes the question leaves, and the text cut at the cap if
 * even that does not fit (a cap near the question's own length).
 * @example `fitPromptText('The figures:\n', { rank_changes: rows }, 2000)`
 * @internal
 */
export function fitPromptText(ask: string, data: unknown, maxBytes: number): string {
  const room = maxBytes - byteLength(ask);
  return cutText(`${ask}${toolText(data, Math.max(0, room))}`, maxBytes);
}

/**
 * `text` whole when it fits `maxBytes` (UTF-8), else its start, cut between characters, with a
 * last line that says it was cut: the hard cap on any text the server sends (a prompt's message).
 * @example `cutText('x'.repeat(5000), 1000)` is 1,000 bytes at most
 * @internal
 */
export function cutText(text: string, maxBytes: number): string {
  if (byteLength(text) <= maxBytes) return text;
  const mark = `\n[cut to fit the size cap of ${maxBytes.toLocaleString('en-US')} bytes]`;
  const bytes = Buffer.from(text, 'utf8');
  let end = Math.max(0, maxBytes - byteLength(mark));
  // Back to the first byte of a character (continuation bytes are 10xxxxxx): no character split.
  while (end > 0 && ((bytes[end] as number) & 0xc0) === 0x80) end--;
  const start = bytes.subarray(0, end).toString('utf8');
  return `${start}${mark}`;
}

/**
 * `rows` with the texts of the `columns` that hold timestamps (QueryResult.timestamps) read as
 * Dates, so the output writes them as UTC ISO whatever the column is called; a text that is no
 * real date and time stays as it is.
 * @example `withTimestamps([{ created: '2026-03-08T10:00:00Z' }], ['created'])`
 * @internal
 */
export function withTimestamps<T extends Record<string, unknown>>(rows: T[], columns: readonly string[] = []): T[] {
  if (!columns.length) return rows;
  return rows.map((row) => {
    const out: Record<string, unknown> = { ...row };
    for (const column of columns) {
      const value = out[column];
      if (typeof value === 'string' && TIMESTAMP.test(value) && realDate(value)) {
        const at = new Date(value);
        if (!Number.isNaN(at.getTime())) out[column] = at;
      }
    }
    return out as T;
  });
}

/** The note of a result cut to the size cap (the agent learns why, and what to do). */
export function sizeNote(maxBytes: number): string {
  return `Cut to fit the size cap of ${maxBytes.toLocaleString('en-US')} bytes: select fewer or shorter columns (e.g. left(column, 200)), add a WHERE or an aggregate, or ask for fewer rows.`;
}

/** `result` with its row lists cut, small lists first, so the whole text stays under `maxBytes`. */
function fitted(result: Record<string, unknown>, maxBytes: number): Record<string, unknown> {
  const lists = Object.entries(result).filter((e): e is [string, unknown[]] => Array.isArray(e[1]));
  const note = sizeNote(maxBytes);
  const frame = { ...result, ...Object.fromEntries(lists.map(([k]) => [k, []])), truncated: true, note };
  let budget = maxBytes - byteLength(JSON.stringify(frame, jsonValue)) - 32; // room for the count fields below
  const out: Record<string, unknown> = { ...result };
  const sized = lists.map(([key, rows]) => ({
    key,
    rows,
    sizes: rows.map((r) => byteLength(JSON.stringify(r, jsonValue) ?? 'null') + 1),
  }));
  sized.sort((a, b) => total(a.sizes) - total(b.sizes));
  sized.forEach(({ key, rows, sizes }, i) => {
    const share = Math.floor(budget / (sized.length - i));
    let used = 0;
    let n = 0;
    while (n < rows.length && used + (sizes[n] as number) <= share) used += sizes[n++] as number;
    out[key] = rows.slice(0, n);
    budget -= used;
  });
  if ('row_count' in out && Array.isArray(out['rows'])) out['row_count'] = out['rows'].length;
  return { ...out, truncated: true, note };
}

/**
 * JSON.stringify's replacer: Dates, and the texts of the store's timestamp columns, as UTC ISO;
 * BigInts as numbers where exact; BLOBs as `\x` hex. A text is rewritten only under the name of a
 * column the store declares a timestamp (SQLite keeps the API's text, PostgreSQL's row_to_json
 * writes `+00:00`): a keyword or a prompt that looks like a timestamp comes back as stored.
 */
export function jsonValue(this: unknown, key: string, value: unknown): unknown {
  const raw = isRecord(this) ? this[key] : value;
  if (raw instanceof Date) return Number.isNaN(raw.getTime()) ? null : raw.toISOString();
  // A SQLite BLOB as PostgreSQL's row_to_json writes a bytea: one short text, not a key per byte.
  if (raw instanceof Uint8Array) return `\\x${Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('hex')}`;
  if (typeof value === 'bigint')
    return value <= BigInt(Number.MAX_SAFE_INTEGER) && value >= BigInt(Number.MIN_SAFE_INTEGER)
      ? Number(value)
      : value.toString();
  if (typeof value === 'string' && isTimestampColumn(key) && TIMESTAMP.test(value) && realDate(value)) {
    const at = new Date(value);
    return Number.isNaN(at.getTime()) ? value : at.toISOString();
  }
  return value;
}

/** The columns the store declares timestamps (createdAt, checked_at, completed_at…), by name: no name is a timestamp in one table and text in another. */
const TIMESTAMP_COLUMNS: ReadonlySet<string> = new Set(STORE_TIMESTAMPS.map(({ column }) => column));

/** A timestamp column of the store, or a view's copy of one from the period before (`previous_completed_at`). */
const isTimestampColumn = (key: string): boolean =>
  TIMESTAMP_COLUMNS.has(key) || (key.startsWith('previous_') && TIMESTAMP_COLUMNS.has(key.slice('previous_'.length)));

/** A date and time with an offset (what timestamptz and the API's timestamps look like). */
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}(:?\d{2})?)$/;

/** Whether the text's day exists (Date rolls 30 February over to 2 March, and 31 April to 1 May). */
function realDate(text: string): boolean {
  const [year, month, day] = text.slice(0, 10).split('-').map(Number) as [number, number, number];
  const utc = new Date(Date.UTC(year, month - 1, day));
  return utc.getUTCFullYear() === year && utc.getUTCMonth() === month - 1 && utc.getUTCDate() === day;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const byteLength = (text: string) => Buffer.byteLength(text, 'utf8');
const total = (sizes: number[]) => sizes.reduce((a, b) => a + b, 0);
