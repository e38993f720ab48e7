import { isObject } from '../../internal/option-check.js';
import type { Draw } from './draw.js';

/**
 * What chaos does to the records of a success body: names and values a real server has sent, and
 * a store or a terminal has choked on. Key fields (`id`, `…_id`, `anchor_text`, `domain`) are left
 * alone, so a row keeps its identity and the copy can be compared with the simulator's truth.
 * @internal
 */

/** New field names that collide with SQL words, with a documented name's case, or need quoting. */
export const HOSTILE_NAMES: readonly string[] = [
  'group',
  'order',
  'Keyword',
  'net-change',
  'we"ird \'name',
  'select',
  'Net_Change',
  'DESC',
  '__proto__',
];

/** Text no terminal, store or JSON column should take raw. */
export const HOSTILE_TEXTS: readonly string[] = [
  'nul\u0000inside',
  'lone \ud800 surrogate',
  'title \u001b]0;pwned\u0007 set',
  'clear \u001b[2J\u001b[H screen',
  'right-to-left \u202etxt.exe',
  'latin1 caf\u00e9 \ufffd',
];

/** Text that drives a terminal (set its title, clear it, reverse the reading order): what an error message may carry. */
export const TERMINAL_TEXTS: readonly string[] = HOSTILE_TEXTS.filter((t) => /[\u001b\u202e]/.test(t));

/** Values where a date or time is documented. */
export const HOSTILE_DATES: readonly string[] = ['', '2026-02-30', 'not a date', '0000-00-00T00:00:00Z'];

const DATE_FIELD = /(_date|_at|^first_seen|^last_seen|^last_checked)$/;
const isKey = (name: string) =>
  name === 'id' || name.endsWith('_id') || name === 'anchor_text' || name === 'domain' || name === 'snapshot_date';

/** The records of a body's `data`: the array itself, a paged object's array, or the object. */
export function recordsOf(data: unknown): Array<Record<string, unknown>> {
  if (Array.isArray(data)) return data.filter(isObject);
  if (isObject(data)) {
    for (const key of ['responses', 'history', 'issues'])
      if (Array.isArray(data[key])) return (data[key] as unknown[]).filter(isObject);
    return [data];
  }
  return [];
}

/** Adds the run's hostile field names to every record (with `Keyword` echoing `keyword` when there is one). */
export function addHostileNames(records: Array<Record<string, unknown>>, names: readonly string[]): void {
  for (const r of records) {
    for (const name of names) {
      // JSON allows an own "__proto__" key; assigning it would set the prototype instead, so define it.
      if (name === '__proto__')
        Object.defineProperty(r, name, {
          value: { isAdmin: true },
          enumerable: true,
          writable: true,
          configurable: true,
        });
      else
        r[name] =
          name === 'Keyword' && typeof r['keyword'] === 'string' ? String(r['keyword']).toUpperCase() : `${name} value`;
    }
  }
}

/** Stands for 2^53 + 1 until {@link serialize} writes it as a bare JSON number (a JS number cannot hold it). */
const BIG_MARKER = '\u0000chaos-big-number\u0000';

/** The body as JSON text, with 2^53 + 1 written where the type-changing field asked for it. */
export function serialize(body: unknown): string {
  return JSON.stringify(body).replaceAll(JSON.stringify(BIG_MARKER), '9007199254740993');
}

/** Gives each record `count` extra fields (`chaos_f0001`…). */
export function widen(records: Array<Record<string, unknown>>, count: number): void {
  for (const r of records) for (let i = 1; i <= count; i++) r[`chaos_f${String(i).padStart(4, '0')}`] = i;
}

/**
 * A field the server added whose type depends on the page: a number, then `"n/a"`, then an object,
 * then a number past double precision's exact range.
 */
export function addTypeChanging(records: Array<Record<string, unknown>>, page: number): void {
  const variants: unknown[] = [37, 'n/a', { value: 37, unit: 'score' }, BIG_MARKER, true];
  for (const r of records) r['chaos_metric'] = variants[page % variants.length];
}

/**
 * Puts hostile text in one string field and a hostile date in one date field of some records.
 * Returns how many values were changed.
 */
export function addHostileValues(records: Array<Record<string, unknown>>, draw: Draw, salt: string): number {
  let changed = 0;
  records.forEach((r, index) => {
    if (!draw.chance(0.3, 'value-record', salt, index)) return;
    const fields = Object.keys(r).filter((k) => !isKey(k));
    const texts = fields.filter((k) => typeof r[k] === 'string' && !DATE_FIELD.test(k));
    const dates = fields.filter((k) => DATE_FIELD.test(k) && (typeof r[k] === 'string' || r[k] === null));
    if (texts.length > 0) {
      const k = draw.pick(texts, 'value-text', salt, index);
      r[k] = `${String(r[k])} ${draw.pick(HOSTILE_TEXTS, 'value-which', salt, index)}`;
      changed++;
    }
    if (dates.length > 0) {
      r[draw.pick(dates, 'value-date', salt, index)] = draw.pick(HOSTILE_DATES, 'value-date-which', salt, index);
      changed++;
    }
  });
  return changed;
}
