import { insightViews } from '../../src/insights/create-views.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync, type SQLInputValue } from 'node:sqlite';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { expect } from 'vitest';
import type { PromptDef } from '../../src/insights/mcp-prompts.js';
import { createMcpServer } from '../../src/insights/mcp-server.js';
import { type ToolLimits, storeTools } from '../../src/insights/mcp-tools.js';
import { Sql } from '../../src/insights/dialect.js';
import { SQLITE_COLUMNS, columnsOf, viewStatements } from '../../src/insights/schema-objects.js';
import type { InsightSource, ResultRow } from '../../src/insights/source.js';
import { sqliteStore } from '../../src/sync/index.js';
import { fixtureWrites } from './support.js';

/** A tool's JSON: many shapes, read field by field in the tests. */
export type Json = any;

/** What a tool call gave: whether it failed, its text, and its JSON (a failure fails the test). */
export interface ToolReply {
  isError: boolean;
  text: string;
  json: () => Json;
}

/** An MCP client (the SDK's own) connected in memory to the server over `source`, as an agent sees it. */
export async function agentOf(
  source: InsightSource,
  limits: ToolLimits,
  prompts?: PromptDef[],
): Promise<{
  client: Client;
  call: (name: string, args?: Record<string, unknown>) => Promise<ToolReply>;
  close: () => Promise<void>;
}> {
  const server = await createMcpServer({
    tools: storeTools(source, limits),
    prompts,
    redact: (text) => text,
    maxBytes: limits.maxBytes,
  });
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'mcp-test', version: '1.0.0' });
  await client.connect(clientSide);
  const call = async (name: string, args: Record<string, unknown> = {}): Promise<ToolReply> => {
    const result = await client.callTool({ name, arguments: args });
    const text = (result.content as Array<{ text: string }>)[0]?.text ?? '';
    return {
      isError: result.isError === true,
      text,
      json: () => (result.isError ? expect.fail(text) : JSON.parse(text)),
    };
  };
  return { client, call, close: async () => void (await client.close()) };
}

/**
 * The hand-checked fixture (support.ts) in a SQLite store, read in this process through node:sqlite
 * with the insight views in front, as the real reader does in its child process: the unit loop's
 * store for the tools (no child process, no server). Rows are cut at `maxRows`, and at `maxBytes`
 * of JSON as the child cuts them.
 */
export async function fixtureSource(extra: StoreWrite[] = []): Promise<InsightSource> {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-tools-'));
  const file = join(dir, 'seo.db');
  const store = sqliteStore(file, { extensions: [insightViews] });
  await store.open();
  await store.commit({ writes: [...fixtureWrites(), ...extra] });
  await store.close();
  const db = new DatabaseSync(file, { readOnly: true });
  const columns = columnsOf(db.prepare(SQLITE_COLUMNS).all());
  for (const statement of viewStatements(new Sql('sqlite', columns), { temp: true })) db.exec(statement);
  return {
    dialect: 'sqlite',
    location: file,
    columns,
    query: async (sql, params = [], limits = {}) => {
      const rows: ResultRow[] = [];
      let size = 2;
      for (const row of db.prepare(sql).iterate(...(params as SQLInputValue[]))) {
        if (rows.length >= (limits.maxRows ?? Number.MAX_SAFE_INTEGER)) return { rows, truncated: true, cutBy: 'rows' };
        size += JSON.stringify(row).length + 1;
        if (limits.maxBytes !== undefined && size > limits.maxBytes) return { rows, truncated: true, cutBy: 'bytes' };
        rows.push({ ...row });
      }
      return { rows, truncated: false };
    },
    close: async () => {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** One table's rows for a store commit. */
export type StoreWrite = ReturnType<typeof fixtureWrites>[number];
