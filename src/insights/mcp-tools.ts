import * as z from 'zod';
import { DEFAULT_DAYS, aiVisibility, auditChanges, backlinkChanges, rankChanges } from './queries.js';
import { oneStatement } from './one-statement.js';
import { sizeNote } from './mcp-output.js';
import { projectId } from './project-choice.js';
import { describeSchema } from './schema-docs.js';
import type { InsightSource, QueryLimits } from './source.js';

/** The limits of the MCP server's queries. @internal */
export interface ToolLimits {
  /** Rows one `sql` call returns at most (and the cap on every `limit`). */
  maxRows: number;
  /** Statement time limit, in milliseconds. */
  timeoutMs: number;
  /** Bytes of one result at most (the `sql` tool's rows are cut in the store, before they are sent). */
  maxBytes: number;
}

/** What a tool does to the world, as MCP tool annotations tell a client (hints, not guarantees). @internal */
export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint?: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** A tool that reads the synced store: nothing changes, the same call gives the same answer until the next sync, no network. */
const STORE_READ: ToolAnnotations = { readOnlyHint: true, idempotentHint: true, openWorldHint: false };

/** One tool: its name, description, input schema and what it does. @internal */
export interface ToolDef {
  name: string;
  description: string;
  input: z.ZodObject;
  annotations: ToolAnnotations;
  run(args: Record<string, unknown>): Promise<unknown>;
}

const project = z.string().min(1).optional().describe('only this project: its id or its name; all projects when absent');
const days = z.number().int().min(1).max(366).optional().describe(`period length in days, ending at each project's latest data (default ${DEFAULT_DAYS})`);

/** What differs between the stores when writing SQL by hand (the schema tool says it too). */
const QUOTING = {
  postgres: 'PostgreSQL: camelCase columns must be double-quoted ("websiteUrl").',
  sqlite: 'SQLite: column names are case-insensitive, quoting is optional.',
} as const;

/** The read tools over a store: schema, sql and the four insight views. @internal */
export function storeTools(source: InsightSource, limits: ToolLimits): ToolDef[] {
  const limit = z.number().int().min(1).max(limits.maxRows).optional().describe(`rows at most (default 50, at most ${limits.maxRows})`);
  const bounded: QueryLimits = { timeoutMs: limits.timeoutMs };
  const rows = (n: unknown) => (typeof n === 'number' ? n : 50);
  /** The filters every view tool takes, the project named by id or name. */
  const filter = async (a: Record<string, unknown>) => ({
    project: typeof a['project'] === 'string' ? await projectId(source, a['project'], bounded) : undefined,
    days: a['days'] as number | undefined,
    limit: rows(a['limit']),
  });
  return [
    {
      name: 'schema',
      description: 'How to write SQL for this store, the insight views (what each answers, every column) and the tables (key, typed columns). Start here before writing SQL.',
      input: z.strictObject({}),
      annotations: STORE_READ,
      run: async () => describeSchema(source),
    },
    {
      name: 'sql',
      description: `Runs one read-only SQL statement (${source.dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL'}: SELECT, WITH, VALUES, TABLE, SHOW or EXPLAIN) over the store and returns at most max_rows rows and ${limits.maxBytes.toLocaleString('en-US')} bytes, under a ${limits.timeoutMs} ms time limit. Writes are refused. ${QUOTING[source.dialect]} Timestamps read as UTC ISO 8601. The views rank_changes, ai_visibility, ai_visibility_models, backlink_changes, backlink_trend and audit_changes hold periods of 7, 28 and 90 days; the schema tool lists every table and column.`,
      input: z.strictObject({
        query: z.string().min(1).describe('one SELECT statement'),
        max_rows: z.number().int().min(1).max(limits.maxRows).optional().describe(`rows at most (default and cap ${limits.maxRows})`),
      }),
      annotations: STORE_READ,
      run: async (args) => {
        const maxRows = (args['max_rows'] as number | undefined) ?? limits.maxRows;
        const statement = oneStatement(String(args['query']), source.dialect);
        const result = await source.query(statement, [], { maxRows, maxBytes: limits.maxBytes, timeoutMs: limits.timeoutMs });
        const note = result.cutBy === 'bytes' ? sizeNote(limits.maxBytes) : `Cut at ${maxRows} rows (the row cap): add a WHERE, an aggregate or a LIMIT to see what matters.`;
        return { rows: result.rows, row_count: result.rows.length, truncated: result.truncated, ...(result.truncated ? { note } : {}) };
      },
    },
    {
      name: 'rank_changes',
      description: "Keywords that moved over a period, the biggest moves first: start and end position, the change (negative is better) and whether they entered or left the top 3 and top 10.",
      input: z.strictObject({
        project,
        days,
        limit,
        device: z.enum(['desktop', 'mobile', 'ai_mode', 'maps']).optional().describe('one device; all four when absent'),
        movement: z.enum(['entered top 3', 'entered top 10', 'left top 10', 'left top 3']).optional().describe('only keywords with this movement'),
      }),
      annotations: STORE_READ,
      run: async (a) => ({ rows: await rankChanges(source, { ...(await filter(a)), device: a['device'] as string, movement: a['movement'] as string }, bounded) }),
    },
    {
      name: 'ai_visibility',
      description: "How visible the brand is in each AI model's answers over a period, against the previous period of the same length (models), and per prompt and day (daily).",
      input: z.strictObject({ project, days, limit, model: z.string().min(1).optional().describe("one model, e.g. 'openai/gpt-5'") }),
      annotations: STORE_READ,
      run: async (a) => {
        const f = await filter(a);
        const { models, daily } = await aiVisibility(source, { ...f, model: a['model'] as string }, bounded);
        // `limit` holds for every list a tool returns (the models were all returned).
        return { models: models.slice(0, f.limit), daily };
      },
    },
    {
      name: 'backlink_changes',
      description: 'Referring domains gained and lost over a period (domains), and the daily referring-domain trend over it (trend).',
      input: z.strictObject({ project, days, limit, change: z.enum(['gained', 'lost']).optional() }),
      annotations: STORE_READ,
      run: async (a) => {
        const f = await filter(a);
        const { domains, trend } = await backlinkChanges(source, { ...f, change: a['change'] as 'gained' }, bounded);
        // `limit` holds for the trend too: its latest days (it was every day of the period, 33.8k characters at limit 5).
        return { domains, trend: latest(trend, f.limit) };
      },
    },
    {
      name: 'audit_changes',
      description: "Audit issues that are new, fixed or still open between each project's last two completed audits (new first, then by severity).",
      input: z.strictObject({
        project,
        limit,
        change: z.enum(['new', 'fixed', 'open']).optional(),
        severity: z.enum(['critical', 'warning', 'notice']).optional(),
      }),
      annotations: STORE_READ,
      run: async (a) => ({ rows: await auditChanges(source, { ...(await filter(a)), change: a['change'] as 'new', severity: a['severity'] as string }, bounded) }),
    },
  ];
}

/** The `n` rows of the latest days (rows with a `day`), in their order. */
function latest<T extends Record<string, unknown>>(rows: T[], n: number): T[] {
  if (rows.length <= n) return rows;
  const kept = new Set([...rows].sort((a, b) => String(b['day']).localeCompare(String(a['day']))).slice(0, n));
  return rows.filter((r) => kept.has(r));
}
