import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SeoVisibilityClient } from '../../src/index.js';
import { apiTool } from '../../src/insights/mcp-api-tool.js';
import { toolText } from '../../src/insights/mcp-output.js';
import { storePrompts } from '../../src/insights/mcp-prompts.js';
import type { InsightSource } from '../../src/insights/source.js';
import { TABLE_SCHEMAS } from '../../src/sync/index.js';
import { agentOf, fixtureSource } from './mcp-support.js';
import { P } from './support.js';

// The MCP tools as an agent calls them (the SDK's client, in memory), over the hand-checked
// fixture: outputs that fit a context, `limit` on every list, projects by name, annotations.

const LIMITS = { maxRows: 500, maxBytes: 4000, timeoutMs: 5000 };
const OTHER = '55555555-5555-4555-8555-555555555555';
const TWIN = '66666666-6666-4666-8666-666666666666';

let source: InsightSource;
let agent: Awaited<ReturnType<typeof agentOf>>;

beforeAll(async () => {
  const projects = [
    { id: OTHER, name: 'Acme Outdoor', websiteUrl: 'https://acme.example/', status: 'active' },
    { id: TWIN, name: 'Twin', websiteUrl: 'https://twin-a.example/', status: 'active' },
    {
      id: '77777777-7777-4777-8777-777777777777',
      name: 'twin',
      websiteUrl: 'https://twin-b.example/',
      status: 'active',
    },
  ];
  source = await fixtureSource([{ table: TABLE_SCHEMAS['projects.list'], rows: projects }]);
  agent = await agentOf(source, LIMITS, storePrompts(source, { ...LIMITS, maxBytes: 20_000 }));
});

afterAll(async () => {
  await agent?.close();
  await source?.close();
});

describe('schema: short and useful', () => {
  it('says how to write SQL for the store, what each view answers, and every table with its key and typed columns', async () => {
    // The schema whole, under a cap it fits (every view and table): the 4,000-byte cap of the other
    // tests would cut it, and cutting is tested on its own.
    const wide = await agentOf(source, { ...LIMITS, maxBytes: 20_000 });
    const result = await wide.call('schema').finally(() => wide.close());
    const schema = result.json();
    expect(result.text.length).toBeLessThan(15_000);
    expect(schema.how_to.join(' ')).toMatch(/SQLite: column names are case-insensitive/);
    const rankings = schema.tables.find((t: { name: string }) => t.name === 'rankings_history');
    expect(rankings.key).toEqual(TABLE_SCHEMAS['rankings.history'].primaryKey);
    expect(rankings.columns).toMatch(/check_date date, keyword text, desktop_position number/);
    expect(schema.tables.find((t: { name: string }) => t.name === 'projects_list').columns).toMatch(
      /websiteUrl text, createdAt timestamp/,
    );
    expect(schema.views.find((v: { name: string }) => v.name === 'rank_changes').answers).toMatch(/\w{4}/);
    // The daily counts the database keeps: an agent's cheap per-day visibility.
    expect(schema.tables.find((t: { name: string }) => t.name === 'ai_visibility_daily')).toMatchObject({
      key: ['account_id', 'project_id', 'model', 'day'],
      columns: expect.stringMatching(/^account_id text, project_id text, model text, day date, responses number/),
    });
  });

  it('the sql tool tells PostgreSQL and SQLite apart on quoting', async () => {
    const { tools } = await agent.client.listTools();
    expect(tools.find((t) => t.name === 'sql')?.description).toMatch(/SQLite.*case-insensitive/);
  });
});

describe('projects by name or id', () => {
  it('a name answers as its id does', async () => {
    const byId = (await agent.call('rank_changes', { project: P })).json().rows;
    expect(byId.length).toBeGreaterThan(0);
    expect((await agent.call('rank_changes', { project: 'Fixture' })).json().rows).toEqual(byId);
    expect((await agent.call('audit_changes', { project: ' fixture ' })).json().rows.length).toBeGreaterThan(0);
  });

  it('an unknown project is refused, listing the valid ones (no silent "no rows")', async () => {
    const result = await agent.call('backlink_changes', { project: 'Acme Indoor' });
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(
      /No project has the id or name "Acme Indoor". The projects: "Acme Outdoor" \(5555.*"Fixture" \(1111/,
    );
  });

  it('a name two projects share is refused, listing their ids', async () => {
    const result = await agent.call('ai_visibility', { project: 'TWIN' });
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(/2 projects are named "TWIN": pass one of their ids: .*6666.*7777/);
    expect((await agent.call('ai_visibility', { project: TWIN })).isError).toBe(false);
  });
});

describe('limit holds for every list a tool returns', () => {
  it('backlink_changes: the trend is its latest `limit` days', async () => {
    const { trend } = (await agent.call('backlink_changes', { project: P, days: 90, limit: 1 })).json();
    expect(trend).toHaveLength(1);
    expect(trend[0].day).toBe('2026-03-08');
  });

  it('ai_visibility: `limit` models', async () => {
    expect((await agent.call('ai_visibility', { project: P, days: 28 })).json().models.length).toBe(2);
    expect((await agent.call('ai_visibility', { project: P, days: 28, limit: 1 })).json().models).toHaveLength(1);
  });
});

describe('size cap', () => {
  const many =
    "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1000) SELECT x, 'a value of some length' AS t FROM c";

  it('sql: rows past the size cap are cut, the result says so and why', async () => {
    const result = await agent.call('sql', { query: many });
    expect(result.text.length).toBeLessThanOrEqual(LIMITS.maxBytes);
    const json = result.json();
    expect(json.truncated).toBe(true);
    expect(json.rows.length).toBeGreaterThan(10);
    expect(json.row_count).toBe(json.rows.length);
    expect(json.note).toMatch(/size cap of 4,000 bytes: select fewer or shorter columns/);
  });

  it('every list of a result is cut to fit, small lists kept whole', () => {
    const result = {
      models: [{ m: 'a' }, { m: 'b' }],
      daily: Array.from({ length: 500 }, (_, i) => ({ day: '2026-03-01', n: i, text: 'x'.repeat(40) })),
    };
    const text = toolText(result, 3000);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(3000);
    const cut = JSON.parse(text);
    expect(cut.models).toEqual(result.models);
    expect(cut.daily.length).toBeGreaterThan(10);
    expect(cut.daily).toEqual(result.daily.slice(0, cut.daily.length));
    expect(cut).toMatchObject({ truncated: true, note: expect.stringMatching(/size cap/) });
  });

  it('a single row over the cap gives no rows and says what to do', () => {
    const cut = JSON.parse(toolText({ rows: [{ big: 'x'.repeat(10_000) }], row_count: 1, truncated: false }, 1000));
    expect(cut).toMatchObject({
      rows: [],
      row_count: 0,
      truncated: true,
      note: expect.stringMatching(/left\(column, 200\)/),
    });
  });
});

describe('timestamps read the same from either store', () => {
  it('an API timestamp, a timestamptz text and a Date all read as UTC ISO 8601 with milliseconds', () => {
    // Texts under the store's timestamp columns' names (a keyword that looks like one stays as stored).
    const row = {
      checked_at: '2026-03-08T10:00:00Z',
      createdAt: '2026-03-08T10:00:00+00:00',
      c: new Date(Date.UTC(2026, 2, 8, 10)),
      completed_at: '2026-03-08T12:00:00+02:00',
      day: '2026-03-08',
      text: 'not 2026-03-08T10:00:00Z',
    };
    expect(JSON.parse(toolText(row, 10_000))).toEqual({
      checked_at: '2026-03-08T10:00:00.000Z',
      createdAt: '2026-03-08T10:00:00.000Z',
      c: '2026-03-08T10:00:00.000Z',
      completed_at: '2026-03-08T10:00:00.000Z',
      day: '2026-03-08',
      text: 'not 2026-03-08T10:00:00Z',
    });
  });

  it('through the sql tool', async () => {
    const rows = (
      await agent.call('sql', { query: 'SELECT checked_at FROM prompts_history ORDER BY checked_at LIMIT 1' })
    ).json().rows;
    expect(rows).toEqual([{ checked_at: '2026-02-28T10:00:00.000Z' }]);
  });
});

describe('annotations: what each tool does to the world', () => {
  it('the store tools read only, the same call gives the same answer, no world outside the store', async () => {
    const { tools } = await agent.client.listTools();
    expect(tools.length).toBe(6);
    for (const tool of tools)
      expect(tool.annotations, tool.name).toEqual({ readOnlyHint: true, idempotentHint: true, openWorldHint: false });
  });

  it('api reaches the world: read-only and idempotent with GET only, destructive with --allow-writes', () => {
    const client = new SeoVisibilityClient({ apiKey: 'sk_test_unused', baseUrl: 'http://127.0.0.1:9/api/v1' });
    const windows = [{ limit: 10_000, intervalMs: 86_400_000 }];
    expect(apiTool({ client, windows, reserve: 0, allowWrites: false }).annotations).toEqual({
      readOnlyHint: true,
      idempotentHint: true,
      openWorldHint: true,
    });
    expect(apiTool({ client, windows, reserve: 0, allowWrites: true }).annotations).toEqual({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: true,
    });
  });
});

describe('prompts for the weekly questions, answered from the store', () => {
  it('lists the weekly pulse and the client update, each taking a project and a period', async () => {
    const { prompts } = await agent.client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(['weekly_pulse', 'client_update']);
    for (const prompt of prompts)
      expect(prompt.arguments?.map((a) => [a.name, a.required])).toEqual([
        ['project', true],
        ['days', false],
      ]);
  });

  it("puts the period's figures from the store in the message, for a project named by name", async () => {
    for (const name of ['weekly_pulse', 'client_update']) {
      const { messages } = await agent.client.getPrompt({ name, arguments: { project: 'Fixture', days: '7' } });
      const text = String((messages[0]?.content as { text?: string } | undefined)?.text);
      expect(text).toMatch(/last 7 days/);
      expect(text).toMatch(/do not call the api tool/);
      // boots went 12 → 4 on desktop over the week; openai/gpt-5 is one of the models.
      expect(text).toMatch(/"keyword":"boots"/);
      expect(text).toMatch(/openai\/gpt-5/);
    }
  });

  it('refuses an unknown project and a bad period', async () => {
    await expect(
      agent.client.getPrompt({ name: 'weekly_pulse', arguments: { project: 'Acme Indoor' } }),
    ).rejects.toThrow(/No project has the id or name "Acme Indoor"/);
    await expect(
      agent.client.getPrompt({ name: 'weekly_pulse', arguments: { project: 'Fixture', days: '400' } }),
    ).rejects.toThrow(/days must be a whole number of days from 1 to 366/);
  });
});

describe('size cap: whatever the shape', () => {
  it('a result whose bulk is not a top-level list (an api reply) is cut too, as text', () => {
    const reply = {
      data: { items: Array.from({ length: 300 }, (_, i) => ({ id: i, name: `keyword ${i}` })) },
      request_id: 'req_1',
    };
    const text = toolText(reply, 2000);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(2000);
    const cut = JSON.parse(text);
    expect(cut).toMatchObject({ truncated: true, note: expect.stringMatching(/size cap/) });
    expect(cut.json_start).toBe(JSON.stringify(reply).slice(0, cut.json_start.length));
  });
});
