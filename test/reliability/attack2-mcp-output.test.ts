/**
 * Attack (session 2) on the MCP tools' output: timestamps are rewritten to UTC ISO so both stores
 * read the same, but a text that is no real date and time must come back as it was, never as
 * another day (JavaScript's Date rolls 30 February over to 2 March).
 */
import { describe, expect, it } from 'vitest';
import { toolText } from '../../src/insights/mcp-output.js';
import { useReport } from './support/report.js';

const report = useReport('attack2-mcp-output');

// Under a timestamp column's name: only the store's timestamp columns are rewritten (attack23.test.ts).
const value = (text: string) => JSON.parse(toolText({ rows: [{ checked_at: text }] }, 10_000)).rows[0].checked_at;

describe('timestamps in tool output', () => {
  it.each([
    ['2026-03-08 12:00:00+02', '2026-03-08T10:00:00.000Z'],
    ['2026-03-08T12:00:00.123456+02:00', '2026-03-08T10:00:00.123Z'],
    ['2024-02-29T23:30Z', '2024-02-29T23:30:00.000Z'],
  ])('a real timestamp %s reads as UTC ISO %s', (text, iso) => {
    expect(value(text)).toBe(iso);
  });

  it.each([
    ['2026-02-30T10:00Z'],
    ['2026-04-31 08:00:00+00'],
    ['2025-02-29T10:00:00Z'],
    ['2026-13-01T10:00Z'],
    ['2026-03-08T24:30Z'],
    ['2026-03-08T10:60Z'],
  ])('an impossible date or time %s comes back unchanged', (text) => {
    report.check({
      area: 'MCP (session 2): output',
      input: `an impossible date or time ${text}`,
      cases: 1,
      expected: text,
      observed: String(value(text)),
      serverSaw: '-',
    });
  });
});

describe('a BLOB in tool output', () => {
  it('reads as PostgreSQL writes a bytea in JSON (\\x and hex), not as an object with one key per byte', () => {
    const text = toolText({ rows: [{ b: new Uint8Array([1, 2, 255]) }] }, 10_000);
    expect(JSON.parse(text).rows[0].b).toBe('\\x0102ff');
  });
});

describe('a Buffer in tool output', () => {
  it('reads as \\x hex too (its toJSON would give { type, data })', () => {
    expect(JSON.parse(toolText({ rows: [{ b: Buffer.from([0xab]) }] }, 10_000)).rows[0].b).toBe('\\xab');
  });
});
