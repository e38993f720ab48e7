import type { KeywordHistoryRecord, KeywordHistoryEntryRecord, KeywordRecord } from '../records.js';
import { formatUuid, hash32, unit } from './rng.js';
import { isoDay } from './time.js';
import { LOCATIONS, MODIFIERS } from './vocab.js';

/** Days of history kept per keyword (the endpoint's default window). */
const HISTORY_DAYS = 90;
/** Modifiers that read before the term ("best hiking boots"); the rest read after it. */
const PREFIXES = new Set([
  'best',
  'cheap',
  'buy',
  'how to choose',
  'top rated',
  'affordable',
  'lightweight',
  'professional',
  'recommended',
  'local',
]);
// Suffix words must not also be modifiers, or a suffixed keyword could repeat an earlier one.
const EXTRA = ['store', 'brand', 'outlet', 'kit', 'set', 'service', 'company', 'delivery', 'club', 'specialist'];
const VOLUMES = [
  10, 20, 30, 50, 70, 90, 110, 140, 170, 210, 260, 320, 390, 480, 590, 720, 880, 1000, 1300, 1600, 1900, 2400, 2900,
  3600, 4400, 5400, 6600, 8100, 9900, 12100, 14800, 18100, 22200, 27100, 33100, 40500, 49500,
];

/** What a keyword table needs to rebuild any row on demand. @internal */
export interface KeywordTableInit {
  seed: number;
  projectIndex: number;
  terms: readonly string[];
  count: number;
  /** Day number of the project's latest completed daily scan (moves when the clock advances). */
  scanDay: () => number;
}

/**
 * The tracked keywords of one project, generated lazily: every row is a pure function of
 * `(seed, project, index, day)`, so 100,000 keywords cost nothing until a page of them is read,
 * and the 90-day history of one keyword is computed only when asked for.
 *
 * @example
 * ```ts
 * const table = sim.data.keywords(projectId);
 * table.count;                      // 2500
 * const row = table.row(0);         // { id, keyword, desktop_position, ... }
 * table.history(row.id)?.summary;   // { best_position, worst_position, data_points }
 * ```
 */
export class KeywordTable {
  readonly #init: KeywordTableInit;
  #scanned: number | undefined;

  /** @internal */
  constructor(init: KeywordTableInit) {
    this.#init = init;
  }

  /** Number of tracked keywords. @example `table.count // 2500` */
  get count(): number {
    return this.#init.count;
  }

  /** The keyword UUID of row `index`; the row index is encoded in the last group so lookup is O(1). @example `table.idOf(0) === table.row(0).id` */
  idOf(index: number): string {
    const { seed, projectIndex } = this.#init;
    const head = [0, 1, 2]
      .map((k) => hash32(seed, 'kw-id', projectIndex, index, k).toString(16).padStart(8, '0'))
      .join('');
    const tail = projectIndex.toString(16).padStart(2, '0') + index.toString(16).padStart(10, '0');
    return formatUuid(head.slice(0, 20) + tail);
  }

  /** Row index of a keyword UUID, or -1 when the id is not one of this table's. @example `table.indexOf(table.idOf(9)) // 9` */
  indexOf(id: string): number {
    const index = parseInt(id.slice(-10), 16);
    if (!Number.isInteger(index) || index < 0 || index >= this.count) return -1;
    return this.idOf(index) === id.toLowerCase() ? index : -1;
  }

  /** How many keywords each daily scan updates (all but the paused ones); computed once. @example `table.scannedCount() <= table.count` */
  scannedCount(): number {
    if (this.#scanned === undefined) {
      const day = this.#init.scanDay();
      let n = 0;
      for (let i = 0; i < this.count; i++) if (this.lastCheckDay(i) === day) n++;
      this.#scanned = n;
    }
    return this.#scanned;
  }

  /** UTC day number of the last scan that covered row `index`: ~3% of keywords are paused and lag behind. @example `isoDay(table.lastCheckDay(0)) === table.row(0).last_checked` */
  lastCheckDay(index: number): number {
    const { seed, projectIndex } = this.#init;
    const lag =
      unit(seed, 'paused', projectIndex, index) < 0.03 ? 1 + (hash32(seed, 'lag', projectIndex, index) % 45) : 0;
    return this.#init.scanDay() - lag;
  }

  /** The list record of row `index` as of its last check. @example `table.row(0).desktop_position` */
  row(index: number): KeywordRecord {
    const { seed, projectIndex } = this.#init;
    const day = this.lastCheckDay(index);
    const now = this.positions(index, day);
    const before = this.positions(index, day - 1);
    const volume = VOLUMES[Math.floor(unit(seed, 'vol', projectIndex, index) ** 2 * VOLUMES.length)] ?? 10;
    return {
      id: this.idOf(index),
      keyword: this.keywordText(index),
      desktop_position: now[0],
      mobile_position: now[1],
      ai_mode_position: now[2],
      maps_position: now[3],
      // Net Change: improvement summed over the four channels; positive means it moved up.
      net_change: before.reduce((sum, p, ch) => sum + p - (now[ch] ?? p), 0),
      location: this.location(index),
      search_volume: volume,
      last_checked: isoDay(day),
    };
  }

  /** Daily history of the keyword `id` between two UTC day numbers (inclusive), or undefined if unknown. @example `table.history(table.idOf(0))?.history.length // 90` */
  history(id: string, fromDay?: number, toDay?: number): KeywordHistoryRecord | undefined {
    const index = this.indexOf(id);
    if (index < 0) return undefined;
    const last = this.lastCheckDay(index);
    const first = Math.max(fromDay ?? last - HISTORY_DAYS + 1, last - HISTORY_DAYS + 1);
    const end = Math.min(toDay ?? last, last);
    const history: KeywordHistoryEntryRecord[] = [];
    for (let day = first; day <= end; day++) history.push(this.#entry(index, day));
    const desktop = history.map((h) => h.desktop_position);
    return {
      keyword_id: this.idOf(index),
      keyword: this.keywordText(index),
      history,
      summary: {
        // Computed over desktop_position; 0 when the range holds no data (reference types them as integers).
        best_position: desktop.length ? Math.min(...desktop) : 0,
        worst_position: desktop.length ? Math.max(...desktop) : 0,
        data_points: history.length,
      },
    };
  }

  /** Search term of row `index`: term × modifier combinations, then suffixed variants. @example `table.keywordText(0) // e.g. 'best hiking boots'` */
  keywordText(index: number): string {
    const { terms, seed } = this.#init;
    const combos = terms.length * MODIFIERS.length;
    const shifted = (index + (hash32(seed, 'kw-offset') % combos)) % combos;
    const term = terms[shifted % terms.length] ?? 'keyword';
    const modifier = MODIFIERS[Math.floor(shifted / terms.length) % MODIFIERS.length] ?? '';
    let text = modifier === '' ? term : PREFIXES.has(modifier) ? `${modifier} ${term}` : `${term} ${modifier}`;
    // Each pass over the combinations uses another location, so (keyword, location) pairs stay
    // unique; only past every location does the term get a suffix.
    const round = Math.floor(Math.floor(index / combos) / LOCATIONS.length);
    if (round > 0)
      text += ` ${EXTRA[(round - 1) % EXTRA.length]}${round > EXTRA.length ? ` ${Math.ceil(round / EXTRA.length)}` : ''}`;
    return text;
  }

  /** Tracking location of row `index`. @example `table.location(0) // e.g. 'Denver, CO'` */
  location(index: number): string {
    const { terms, seed, projectIndex } = this.#init;
    const pass = Math.floor(index / (terms.length * MODIFIERS.length));
    return LOCATIONS[(pass + hash32(seed, 'loc', projectIndex)) % LOCATIONS.length] ?? 'United States';
  }

  /** Positions [desktop, mobile, ai_mode, maps] of row `index` on UTC day `day`: a slow wave plus noise. @example `const [desktop] = table.positions(0, table.lastCheckDay(0));` */
  positions(index: number, day: number): [number, number, number, number] {
    const { seed, projectIndex } = this.#init;
    const base = 1 + Math.floor(unit(seed, 'base', projectIndex, index) ** 1.7 * 90);
    const out: number[] = [];
    for (let ch = 0; ch < 4; ch++) {
      const offset = ch === 0 ? 0 : Math.floor(unit(seed, 'ch', projectIndex, index, ch) * 15) - 5;
      const phase = hash32(seed, 'phase', projectIndex, index, ch) % 64;
      const wave = Math.round(5 * Math.sin((day + phase) / 9));
      const noise = (hash32(seed, 'noise', projectIndex, index, ch, day) % 5) - 2;
      out.push(Math.min(100, Math.max(1, base + offset + wave + noise)));
    }
    return out as [number, number, number, number];
  }

  #entry(index: number, day: number): KeywordHistoryEntryRecord {
    const [desktop, mobile, aiMode, maps] = this.positions(index, day);
    return {
      check_date: isoDay(day),
      desktop_position: desktop,
      mobile_position: mobile,
      ai_mode_position: aiMode,
      maps_position: maps,
      featured_snippet: desktop <= 3 && unit(this.#init.seed, 'snippet', index, day) < 0.4,
      local_pack_position: maps <= 3 ? maps : null,
    };
  }
}
