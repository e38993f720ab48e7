import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterEach, describe, expect, it } from 'vitest';
import { storePrompts } from '../../src/insights/mcp-prompts.js';
import { createMcpServer } from '../../src/insights/mcp-server.js';
import { type ToolScope, storeTools } from '../../src/insights/mcp-tools.js';
import type { InsightSource } from '../../src/insights/source.js';
import { fleetDb, inProcessSource } from './fleet-store.js';
import type { Json } from './mcp-support.js';
import { P } from './support.js';

// Issue 23 §1, the MCP side: a fleet warehouse holds many accounts (rows carry account_id). With
// `mcp --account` the view tools, prompts and project names answer for that account only; without
// it they label and group rows by account, never merge the same project in two accounts, and ask
// which account when a project's name or id is in two. Driven by the MCP SDK's own client, in memory,
// over SQLite with the fleet's account_id columns (the views are one definition for both stores).

const LIMITS = { maxRows: 500, maxBytes: 50_000, timeoutMs: 5000 };
const VIEW_TOOLS = ['rank_changes', 'ai_visibility', 'backlink_changes', 'audit_changes'] as const;
const closing: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const close of closing.splice(0)) await close();
});

/**
 * The fixture under each account. `renamed`: account → the name its copy of the project takes (the
 * project id stays the same in every account, as when one API account is synced under two ids).
 */
function fleet(accounts: readonly string[], renamed: Record<string, string> = {}): InsightSource {
  const db = fleetDb(accounts);
  for (const [account, name] of Object.entries(renamed))
    db.prepare('UPDATE projects_list SET name = ? WHERE account_id = ?').run(name, account);
  return inProcessSource(db);
}

async function agentOf(source: InsightSource, scope: ToolScope = {}) {
  const server = await createMcpServer({
    tools: storeTools(source, LIMITS, scope),
    prompts: storePrompts(source, LIMITS, scope),
    redact: (t) => t,
    maxBytes: LIMITS.maxBytes,
  });
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'mcp-accounts-test', version: '1.0.0' });
  await client.connect(clientSide);
  closing.push(async () => void (await client.close()));
  const call = async (name: string, args: Record<string, unknown> = {}) => {
    const result = await client.callTool({ name, arguments: args });
    const text = (result.content as Array<{ text: string }>)[0]?.text ?? '';
    return {
      isError: result.isError === true,
      text,
      json: (): Json => (result.isError ? expect.fail(text) : JSON.parse(text)),
    };
  };
  const prompt = async (name: string, args: Record<string, string>) => {
    const result = await client.getPrompt({ name, arguments: args });
    return (result.messages[0] as { content: { text: string } }).content.text;
  };
  return { client, call, prompt };
}

/** Every row list of a view tool's result, by tool: what the agent reads. */
async function everyList(
  agent: Awaited<ReturnType<typeof agentOf>>,
  args: Record<string, unknown>,
): Promise<Record<string, Json[]>> {
  const out: Record<string, Json[]> = {};
  for (const tool of VIEW_TOOLS) {
    for (const [key, value] of Object.entries((await agent.call(tool, { ...args, limit: 500 })).json()))
      if (Array.isArray(value)) out[`${tool}.${key}`] = value;
  }
  return out;
}

describe('mcp --account: one account of a fleet warehouse', () => {
  it('every view tool and project name answers for that account only, as that account alone would', async () => {
    const alone = await everyList(await agentOf(fleet(['acme'])), {});
    const agent = await agentOf(fleet(['acme', 'globex']), { account: 'globex' });
    for (const args of [{}, { project: 'Fixture' }, { project: P }]) {
      const lists = await everyList(agent, args);
      expect(Object.keys(lists)).toEqual(Object.keys(alone));
      for (const [list, rows] of Object.entries(lists)) {
        expect(rows.length, list).toBeGreaterThan(0);
        expect(
          rows.map((r) => ({ ...r, account_id: 'acme' })),
          `${list} ${JSON.stringify(args)}`,
        ).toEqual(alone[list]);
      }
    }
  });

  it('the view tools take no account argument; the sql tool and schema say rows carry account_id and the sql tool is not filtered', async () => {
    const agent = await agentOf(fleet(['acme', 'globex']), { account: 'globex' });
    const { tools } = await agent.client.listTools();
    for (const name of VIEW_TOOLS)
      expect(Object.keys(tools.find((t) => t.name === name)?.inputSchema.properties ?? {}), name).not.toContain(
        'account',
      );
    expect(tools.find((t) => t.name === 'sql')?.description).toContain(
      `This server answers for account "globex": the sql tool does not filter for you, so add WHERE account_id = 'globex'`,
    );
    const schema = (await agent.call('schema')).json();
    expect(schema.how_to.join(' ')).toMatch(
      /fleet warehouse: every table and view holds the rows of many accounts, told apart by account_id/,
    );
    // The keys as the warehouse has them: account_id first (a key without it would not be unique).
    expect(schema.tables.find((t: Json) => t.name === 'rankings_list').key).toEqual([
      'account_id',
      'project_id',
      'snapshot_date',
      'id',
    ]);
  });

  it("a project of another account is unknown here, the refusal listing this account's projects only", async () => {
    const agent = await agentOf(fleet(['acme', 'globex'], { acme: 'Acme Shop', globex: 'Globex Shop' }), {
      account: 'globex',
    });
    const result = await agent.call('rank_changes', { project: 'Acme Shop' });
    expect(result.isError).toBe(true);
    expect(result.text).toBe(
      `InsightError: No project in account globex has the id or name "Acme Shop". The projects: "Globex Shop" (${P})`,
    );
  });

  it('the prompts read that account only, and name it', async () => {
    const agent = await agentOf(fleet(['acme', 'globex'], { acme: 'Acme Shop', globex: 'Globex Shop' }), {
      account: 'globex',
    });
    const text = await agent.prompt('weekly_pulse', { project: 'Globex Shop' });
    expect(text).toContain('the SEO project "Globex Shop" (account "globex")');
    await expect(agent.prompt('weekly_pulse', { project: 'Acme Shop' })).rejects.toThrow(
      /No project in account globex/,
    );
  });
});

describe('mcp over every account of a fleet warehouse', () => {
  it('rows carry account_id and come grouped by account; nothing is merged (each account has the rows it has alone)', async () => {
    const alone = await everyList(await agentOf(fleet(['acme'])), {});
    const lists = await everyList(await agentOf(fleet(['acme', 'globex'])), {});
    for (const [list, rows] of Object.entries(lists)) {
      const accounts = rows.map((r) => r.account_id);
      expect(accounts, list).toEqual([
        ...(alone[list] ?? []).map(() => 'acme'),
        ...(alone[list] ?? []).map(() => 'globex'),
      ]);
      expect(
        rows.filter((r) => r.account_id === 'globex').map((r) => ({ ...r, account_id: 'acme' })),
        list,
      ).toEqual(alone[list]);
    }
  });

  it('a project name (or id) in two accounts asks which account; with account it answers for that one', async () => {
    const agent = await agentOf(fleet(['acme', 'globex']));
    const byName = await agent.call('rank_changes', { project: 'Fixture' });
    expect(byName.isError).toBe(true);
    expect(byName.text).toContain(
      `2 projects are named "Fixture" in 2 accounts: pass account (one of acme, globex) or one of their ids: "Fixture" (${P}, account acme), "Fixture" (${P}, account globex)`,
    );
    const byId = await agent.call('audit_changes', { project: P });
    expect(byId.text).toContain(`The project ${P} is in 2 accounts: pass account, one of acme, globex`);
    const rows = (await agent.call('rank_changes', { project: 'Fixture', account: 'globex' })).json().rows;
    expect(rows.length).toBeGreaterThan(0);
    expect(new Set(rows.map((r: Json) => r.account_id))).toEqual(new Set(['globex']));
  });

  it("a name found in one account reads that account's project only, even where another account has the same project id", async () => {
    const agent = await agentOf(fleet(['acme', 'globex'], { globex: 'Globex Shop' }));
    const alone = (await (await agentOf(fleet(['acme']))).call('rank_changes', {})).json().rows;
    const rows = (await agent.call('rank_changes', { project: 'Globex Shop' })).json().rows;
    expect(rows.map((r: Json) => ({ ...r, account_id: 'acme' }))).toEqual(alone);
  });

  it('an unknown account is refused, listing the accounts the warehouse holds', async () => {
    const agent = await agentOf(fleet(['acme', 'globex']));
    const result = await agent.call('backlink_changes', { account: 'initech' });
    expect(result.isError).toBe(true);
    expect(result.text).toBe(
      'InsightError: account initech: the warehouse holds no such account; it holds acme, globex',
    );
  });

  it('the view tools and prompts take account; the sql tool says rows carry account_id', async () => {
    const agent = await agentOf(fleet(['acme', 'globex']));
    const { tools } = await agent.client.listTools();
    for (const name of VIEW_TOOLS) {
      const tool = tools.find((t) => t.name === name);
      expect(Object.keys(tool?.inputSchema.properties ?? {}), name).toContain('account');
      expect(tool?.description, name).toContain('Rows carry account_id and come grouped by account.');
    }
    expect(tools.find((t) => t.name === 'sql')?.description).toContain(
      "Filter with WHERE account_id = '<account>' to read one account.",
    );
    const { prompts } = await agent.client.listPrompts();
    for (const p of prompts)
      expect(
        p.arguments?.map((a) => a.name),
        p.name,
      ).toContain('account');
    expect(await agent.prompt('client_update', { project: 'Fixture', account: 'acme' })).toContain(
      'the SEO project "Fixture" (account "acme")',
    );
  });

  it('a store of one account: no account argument, no account note, rows as before', async () => {
    const single = fleet(['acme']);
    const plain: InsightSource = {
      ...single,
      columns: new Map(
        [...single.columns].map(([t, cols]) => [t, new Map([...cols].filter(([c]) => c !== 'account_id'))]),
      ),
    };
    const agent = await agentOf(plain);
    const { tools } = await agent.client.listTools();
    for (const t of tools) expect(Object.keys(t.inputSchema.properties ?? {}), t.name).not.toContain('account');
    expect(tools.find((t) => t.name === 'sql')?.description).not.toMatch(/account_id/);
    expect((await agent.call('rank_changes', { project: 'Fixture' })).json().rows.length).toBeGreaterThan(0);
  });
});
