import { describe, expect, it } from 'vitest';
import {
  fromStateKey,
  holds,
  isIsoDay,
  isIsoTime,
  nearest,
  rawText,
  splitRow,
  stateKey,
  utcTime,
} from '../../../../src/sync/stores/sql/column-values.js';

describe('which values a column holds exactly (column-values.ts)', () => {
  it('timestamps: ISO 8601 of a real day and time only (PostgreSQL would read "now" or "yesterday" as the insert\'s moment)', () => {
    for (const ok of [
      '2026-06-10',
      '2026-06-10T08:00Z',
      '2026-06-10T08:00:00Z',
      '2026-06-10 08:00:00.123456+02:00',
      '2026-06-10T08:00:00-0530',
      '2024-02-29T00:00:00z',
      '0001-01-01T00:00:00Z',
    ])
      expect({ ok, held: isIsoTime(ok) }).toEqual({ ok, held: true });
    for (const bad of [
      '',
      'now',
      'yesterday',
      'Jan 5 2026',
      '2026-02-30T10:00:00Z',
      '2025-02-29',
      '2026-13-01',
      '0000-01-01',
      '2026-06-10T24:00:00Z',
      '2026-06-10T08:60Z',
      '2026-06-10T08:00:60Z',
      '2026-06-10T08:00:00.1234567Z',
      '2026-06-10T08:00:00+16:00',
      '20260610',
    ])
      expect({ bad, held: isIsoTime(bad) }).toEqual({ bad, held: false });
    expect(isIsoDay('2026-06-10')).toBe(true);
    expect(isIsoDay('2026-06-10T00:00:00Z')).toBe(false);
  });

  it('PostgreSQL: each type holds its own values; NUL and lone surrogates fit no text or jsonb', () => {
    expect(holds(37, 'number', 'postgres')).toBe(true);
    expect(holds('37', 'number', 'postgres')).toBe(false);
    expect(holds('n/a', 'number', 'postgres')).toBe(false);
    expect(holds({ a: 1 }, 'number', 'postgres')).toBe(false);
    expect(holds(true, 'boolean', 'postgres')).toBe(true);
    expect(holds('yes', 'boolean', 'postgres')).toBe(false);
    expect(holds('', 'timestamp', 'postgres')).toBe(false);
    expect(holds('a\u0000b', 'text', 'postgres')).toBe(false);
    expect(holds('x\ud800', 'text', 'postgres')).toBe(false);
    expect(holds('\ud83d\ude00 emoji', 'text', 'postgres')).toBe(true);
    expect(holds(5, 'text', 'postgres')).toBe(false);
    expect(holds([{ deep: ['a\u0000'] }], 'json', 'postgres')).toBe(false);
    expect(holds({ '\udc00': 1 }, 'json', 'postgres')).toBe(false);
    expect(holds({ a: ['b', 1, null] }, 'json', 'postgres')).toBe(true);
    expect(holds(null, 'number', 'postgres')).toBe(true);
  });

  it('SQLite: any value but text with a lone surrogate (node:sqlite would store U+FFFD)', () => {
    expect(holds('n/a', 'number', 'sqlite')).toBe(true);
    expect(holds('a\u0000b', 'text', 'sqlite')).toBe(true);
    expect(holds('x\ud800', 'text', 'sqlite')).toBe(false);
    expect(holds({ k: 'x\ud800' }, 'json', 'sqlite')).toBe(true);
  });

  it('the nearest value a column holds: U+FFFD for what text cannot hold, JSON text, the day of a time, else null', () => {
    expect(nearest('a\u0000b\ud800', 'text', 'postgres')).toBe('a\uFFFDb\uFFFD');
    expect(nearest({ a: 1 }, 'text', 'postgres')).toBe('{"a":1}');
    expect(nearest(5, 'text', 'postgres')).toBe('5');
    expect(nearest([{ 'k\u0000': 'v\ud800' }], 'json', 'postgres')).toEqual([{ 'k\uFFFD': 'v\uFFFD' }]);
    expect(nearest('2026-06-10T23:00:00Z', 'date', 'postgres')).toBe('2026-06-10');
    expect(nearest('2026-02-30', 'date', 'postgres')).toBeNull();
    expect(nearest('n/a', 'number', 'postgres')).toBeNull();
    expect(nearest('x\ud800', 'text', 'sqlite')).toBe('x\uFFFD');
  });

  it('a row: held values in their columns, the others nearest there and exact in _raw (a field named __proto__ stays a field)', () => {
    const columns = new Map([
      ['keyword', 'text'],
      ['desktop_position', 'number'],
    ] as const);
    const row = JSON.parse(
      '{"keyword":"a\\u0000b","desktop_position":"n/a","__proto__":{"isAdmin":true},"extra":1}',
    ) as Record<string, unknown>;
    const { cells, raw } = splitRow(
      row,
      (f) => (columns.has(f as never) ? f : undefined),
      (c) => columns.get(c as never) ?? 'text',
      'postgres',
    );
    expect(Object.fromEntries(cells)).toEqual({ keyword: 'a\uFFFDb', desktop_position: null });
    const text = rawText(raw) as string;
    expect(JSON.parse(text)).toEqual(
      JSON.parse('{"keyword":"a\\u0000b","desktop_position":"n/a","__proto__":{"isAdmin":true},"extra":1}'),
    );
    expect(Object.getPrototypeOf(JSON.parse(text))).toBe(Object.prototype);
    expect(text).not.toContain('\u0000');
    expect(rawText(new Map())).toBeNull();
  });

  it('times without a zone are UTC; progress keys the column cannot hold round-trip through ~JSON', () => {
    expect(utcTime('2026-06-10')).toBe('2026-06-10T00:00:00Z');
    expect(utcTime('2026-06-10T08:00:00')).toBe('2026-06-10T08:00:00Z');
    expect(utcTime('2026-06-10T08:00:00+02:00')).toBe('2026-06-10T08:00:00+02:00');
    for (const key of ['task/x', 'audit/p/a\u0000b', 'prompt/p/\ud800', '~starts with a tilde']) {
      expect(fromStateKey(stateKey(key, 'postgres'))).toBe(key);
      expect(fromStateKey(stateKey(key, 'sqlite'))).toBe(key);
    }
    expect(stateKey('task/x', 'postgres')).toBe('task/x');
    expect(stateKey('audit/p/a\u0000b', 'sqlite')).toBe('audit/p/a\u0000b');
  });
});
