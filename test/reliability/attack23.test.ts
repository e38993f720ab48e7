/**
 * Attack (session 4, issue 23) on the MCP server's output and prompts and the report's text: each
 * row is a defect the last review left, tried as an agent or a hostile API would, with what must hold.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { briefRows } from '../../src/insights/mcp-brief.js';
import { cutText, toolText } from '../../src/insights/mcp-output.js';
import { storePrompts } from '../../src/insights/mcp-prompts.js';
import type { InsightSource } from '../../src/insights/source.js';
import { agentOf, fixtureSource } from '../insights/mcp-support.js';
import { useReport } from './support/report.js';

const report = useReport('attack23');

describe('brief(): the rows a prompt puts before the model', () => {
  it('keeps an id that tells two rows apart (one keyword text in two locations)', () => {
    const rows = [
      { keyword_id: 'k1', project_id: 'p', keyword: 'boots', change: -3 },
      { keyword_id: 'k2', project_id: 'p', keyword: 'boots', change: -3 },
      { keyword_id: 'k3', project_id: 'p', keyword: 'tents', change: 2 },
    ];
    const out = briefRows(rows);
    report.check({
      area: 'MCP (session 4): prompts',
      input: 'two rows that differ only by keyword_id',
      cases: 1,
      expected: '3 distinct rows, project_id dropped',
      observed: `${new Set(out.map((r) => JSON.stringify(r))).size} distinct rows, project_id ${out.some((r) => 'project_id' in r) ? 'kept' : 'dropped'}`,
      serverSaw: '-',
    });
    expect(out[0]).toEqual({ keyword_id: 'k1', keyword: 'boots', change: -3 });
  });
});

describe('prompts under a small --max-bytes', () => {
  let source: InsightSource;
  beforeAll(async () => {
    source = await fixtureSource();
  });
  afterAll(async () => {
    await source?.close();
  });

  it.each([1000, 2500, 3999])('a prompt message fits a cap of %i bytes', async (maxBytes) => {
    const limits = { maxRows: 500, maxBytes, timeoutMs: 5000 };
    const agent = await agentOf(source, limits, storePrompts(source, limits));
    try {
      const sizes: number[] = [];
      for (const name of ['weekly_pulse', 'client_update']) {
        const { messages } = await agent.client.getPrompt({
          name,
          arguments: { project: 'Fixture', days: '28' },
        });
        const text = String((messages[0]?.content as { text?: string } | undefined)?.text);
        expect(text).toMatch(/do not call the api tool/);
        sizes.push(Buffer.byteLength(text));
      }
      report.check({
        area: 'MCP (session 4): prompts',
        input: `weekly_pulse and client_update under --max-bytes ${maxBytes}`,
        cases: 2,
        expected: `both at most ${maxBytes} bytes`,
        observed: sizes.every((s) => s <= maxBytes) ? `both at most ${maxBytes} bytes` : `${sizes.join(' and ')} bytes`,
        serverSaw: '-',
      });
    } finally {
      await agent.close();
    }
  });
});

describe('cutText: the hard cap on a prompt message', () => {
  it('cuts between characters (no half of a 4-byte emoji) and says so', () => {
    const text = `${'a'.repeat(997)}😀${'b'.repeat(2000)}`;
    const cut = cutText(text, 1000);
    expect(Buffer.byteLength(cut)).toBeLessThanOrEqual(1000);
    expect(cut).not.toMatch(/\uFFFD/);
    expect(cut).toMatch(/\[cut to fit the size cap of 1,000 bytes\]$/);
  });
});

describe('timestamps in tool output: only the store’s timestamp columns are rewritten', () => {
  const out = (row: Record<string, unknown>) => JSON.parse(toolText({ rows: [row] }, 10_000)).rows[0];

  it.each([
    ['keyword', '2026-03-08 12:00:00+02'],
    ['prompt', '2026-03-08T12:00:00+02:00'],
    ['title', '2024-02-29T23:30Z'],
    ['domain', '2026-03-08T10:00:00Z'],
  ])('a %s whose text looks like a timestamp (%s) comes back as stored', (column, text) => {
    const seen = out({ [column]: text })[column];
    report.check({
      area: 'MCP (session 4): output',
      input: `a ${column} stored as the text ${text}`,
      cases: 1,
      expected: text,
      observed: String(seen),
      serverSaw: '-',
    });
  });

  it('timestamp columns of the store (and the views’ previous_… copies) and Dates still read as UTC ISO', () => {
    expect(
      out({
        checked_at: '2026-03-08T12:00:00+02:00',
        createdAt: '2026-03-08 10:00:00+00',
        previous_completed_at: '2026-02-01T00:00:00Z',
        at: new Date(Date.UTC(2026, 2, 8, 10)),
      }),
    ).toEqual({
      checked_at: '2026-03-08T10:00:00.000Z',
      createdAt: '2026-03-08T10:00:00.000Z',
      previous_completed_at: '2026-02-01T00:00:00.000Z',
      at: '2026-03-08T10:00:00.000Z',
    });
  });
});
