import * as z from 'zod';
import { checkAccount, isFleet } from './account-choice.js';
import { sqlLiteral } from './dialect.js';
import { DEFAULT_DAYS, aiVisibility, auditChanges, backlinkChanges, rankChanges } from './queries.js';
import { oneStatement } from './one-statement.js';
import { sizeNote, withTimestamps } from './mcp-output.js';
import { chooseProject } from './project-choice.js';
import { describeSchema } from './schema-docs.js';
import type { InsightSource, QueryLimits, ResultRow } from './source.js';

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

/**
 * What the MCP server hands a tool with each call: the signal that aborts when the client cancels
 * it (`notifications/cancelled`), which the tool passes to its queries so the store stops them.
 * @example `tool.run({ query: 'SELECT 1' }, { signal: AbortSignal.timeout(5000) })`
 * @internal
 */
export interface ToolCall {
  signal?: AbortSignal | undefined;
}

/** One tool: its name, description, input schema and what it does. @internal */
export interface ToolDef {
  name: string;
  description: string;
  input: z.ZodObject;
  annotations: ToolAnnotations;
  run(args: Record<string, unknown>, call?: ToolCall): Promise<unknown>;
}

const project = z
  .string()
  .min(1)
  .optional()
  .describe('only this project: its id or its name; all projects when absent');
const days = z
  .number()
  .int()
  .min(1)
  .max(366)
  .optional()
  .describe(`period length in days, ending at each project's latest data (default ${DEFAULT_DAYS})`);

/** What differs between the stores when writing SQL by hand (the schema tool says it too). */
const QUOTING = {
  postgres: 'PostgreSQL: camelCase columns must be double-quoted ("websiteUrl").',
  sqlite: 'SQLite: column names are case-insensitive, quoting is optional.',
} as const;

/**
 * Which account the tools answer for. `account`: one account of a fleet warehouse (`mcp --account`,
 * checked by the caller): the view tools, the prompts and project names read only its rows. Absent:
 * every account, each row labelled with its `account_id` and the rows grouped by account, and the
 * view tools take an `account` argument in a fleet warehouse.
 * @example `storeTools(source, limits, { account: 'acme' })`
 * @internal
 */
export interface ToolScope {
  account?: string | undefined;
}

/**
 * What the SQL an agent writes must do about accounts, in a fleet warehouse (undefined otherwise):
 * the sql tool runs the agent's statement as written, and rewriting SQL to filter it cannot be made
 * safe, so it is told instead, in the sql tool's description and in the schema.
 * @internal
 */
export function sqlAccountNote(source: InsightSource, scope: ToolScope = {}): string | undefined {
  if (!isFleet(source)) return undefined;
  const all =
    'This is a fleet warehouse: every table and view holds the rows of many accounts, told apart by account_id (first in every key); join on account_id as well as the ids, since one project id can be in two accounts.';
  return scope.account === undefined
    ? `${all} Filter with WHERE account_id = '<account>' to read one account.`
    : `${all} This server answers for account ${JSON.stringify(scope.account)}: the sql tool does not filter for you, so add WHERE account_id = ${sqlLiteral(scope.account)} on every table and view you read.`;
}

/** The read tools over a store: schema, sql and the four insight views, for one account or all (see {@link ToolScope}). @internal */
export function storeTools(source: InsightSource, limits: ToolLimits, scope: ToolScope = {}): ToolDef[] {
  const limit = z
    .number()
    .int()
    .min(1)
    .max(limits.maxRows)
    .optional()
    .describe(`rows at most (default 50, at most ${limits.maxRows})`);
  /** The limits of one call's queries: the time limit, and the call's signal (a cancelled call stops its query). */
  const bounded = (call?: ToolCall): QueryLimits => ({ timeoutMs: limits.timeoutMs, signal: call?.signal });
  const rows = (n: unknown) => (typeof n === 'number' ? n : 50);
  const note = sqlAccountNote(source, scope);
  /** Every account is in reach: the tools take `account` and label and group their rows by it. */
  const open = isFleet(source) && scope.account === undefined;
  const accountArg = open
    ? {
        account: z
          .string()
          .min(1)
          .optional()
          .describe(
            'only this account of the fleet warehouse (its account_id); every account when absent, each row with its account_id',
          ),
      }
    : {};
  const labelled = open ? ' Rows carry account_id and come grouped by account.' : '';
  /** The filters every view tool takes: the account, and the project named by id or name within it. */
  const filter = async (a: Record<string, unknown>, within: QueryLimits) => {
    let account = scope.account;
    if (account === undefined && typeof a['account'] === 'string') {
      account = a['account'];
      await checkAccount(source, account, 'account', within);
    }
    const chosen =
      typeof a['project'] === 'string' ? await chooseProject(source, a['project'], { account }, within) : undefined;
    return {
      project: chosen?.id,
      account: chosen?.account ?? account,
      days: a['days'] as number | undefined,
      limit: rows(a['limit']),
    };
  };
  /** The rows grouped by account (stable: each account's rows keep their order) when they may come from several. */
  const grouped = <T extends ResultRow>(list: T[]): T[] => (open ? byAccount(list) : list);
  return [
    {
      name: 'schema',
      description:
        'How to write SQL for this store, the insight views (what each answers, every column) and the tables (key, typed columns). Start here before writing SQL.',
      input: z.strictObject({}),
      annotations: STORE_READ,
      run: async () => {
        const schema = describeSchema(source);
        // A fleet warehouse's keys start with account_id (postgresStore with accountId puts it first).
        return note
          ? {
              ...schema,
              how_to: [...schema.how_to, note],
              tables: schema.tables.map((t) => ({ ...t, key: ['account_id', ...t.key] })),
            }
          : schema;
      },
    },
    {
      name: 'sql',
      description: `Runs one read-only SQL statement (${source.dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL'}: SELECT, WITH, VALUES, TABLE, SHOW or EXPLAIN) over the store and returns at most max_rows rows and ${limits.maxBytes.toLocaleString('en-US')} bytes, under a ${limits.timeoutMs} ms time limit. Writes are refused. ${QUOTING[source.dialect]}${note ? ` ${note}` : ''} Timestamps read as UTC ISO 8601. The views rank_changes, ai_visibility, ai_visibility_models, backlink_changes, backlink_trend and audit_changes hold periods of 7, 28 and 90 days; the schema tool lists every table and column.`,
      input: z.strictObject({
        query: z.string().min(1).describe('one SELECT statement'),
        max_rows: z
          .number()
          .int()
          .min(1)
          .max(limits.maxRows)
          .optional()
          .describe(`rows at most (default and cap ${limits.maxRows})`),
      }),
      annotations: STORE_READ,
      run: async (args, call) => {
        const maxRows = (args['max_rows'] as number | undefined) ?? limits.maxRows;
        const statement = oneStatement(String(args['query']), source.dialect);
        const result = await source.query(statement, [], {
          ...bounded(call),
          maxRows,
          maxBytes: limits.maxBytes,
        });
        const note =
          result.cutBy === 'bytes'
            ? sizeNote(limits.maxBytes)
            : `Cut at ${maxRows} rows (the row cap): add a WHERE, an aggregate or a LIMIT to see what matters.`;
        return {
          rows: withTimestamps(result.rows, result.timestamps),
          row_count: result.rows.length,
          truncated: result.truncated,
          ...(result.truncated ? { note } : {}),
        };
      },
    },
    {
      name: 'rank_changes',
      description: `Keywords that moved over a period, the biggest moves first: start and end position, the change (negative is better) and whether they entered or left the top 3 and top 10.${labelled}`,
      input: z.strictObject({
        project,
        ...accountArg,
        days,
        limit,
        device: z
          .enum(['desktop', 'mobile', 'ai_mode', 'maps'])
          .optional()
          .describe('one device; all four when absent'),
        movement: z
          .enum(['entered top 3', 'entered top 10', 'left top 10', 'left top 3'])
          .optional()
          .describe('only keywords with this movement'),
      }),
      annotations: STORE_READ,
      run: async (a, call) => ({
        rows: grouped(
          await rankChanges(
            source,
            {
              ...(await filter(a, bounded(call))),
              device: a['device'] as string,
              movement: a['movement'] as string,
            },
            bounded(call),
          ),
        ),
      }),
    },
    {
      name: 'ai_visibility',
      description: `How visible the brand is in each AI model's answers over a period, against the previous period of the same length (models), and per prompt and day (daily).${labelled}`,
      input: z.strictObject({
        project,
        ...accountArg,
        days,
        limit,
        model: z.string().min(1).optional().describe("one model, e.g. 'openai/gpt-5'"),
      }),
      annotations: STORE_READ,
      run: async (a, call) => {
        const f = await filter(a, bounded(call));
        const { models, daily } = await aiVisibility(source, { ...f, model: a['model'] as string }, bounded(call));
        // `limit` holds for every list a tool returns (the models were all returned).
        return { models: grouped(models.slice(0, f.limit)), daily: grouped(daily) };
      },
    },
    {
      name: 'backlink_changes',
      description: `Referring domains gained and lost over a period (domains), and the daily referring-domain trend over it (trend).${labelled}`,
      input: z.strictObject({ project, ...accountArg, days, limit, change: z.enum(['gained', 'lost']).optional() }),
      annotations: STORE_READ,
      run: async (a, call) => {
        const f = await filter(a, bounded(call));
        const { domains, trend } = await backlinkChanges(
          source,
          { ...f, change: a['change'] as 'gained' },
          bounded(call),
        );
        // `limit` holds for the trend too: its latest days (it was every day of the period, 33.8k characters at limit 5).
        return { domains: grouped(domains), trend: grouped(latest(trend, f.limit)) };
      },
    },
    {
      name: 'audit_changes',
      description: `Audit issues that are new, fixed or still open between each project's last two completed audits (new first, then by severity).${labelled}`,
      input: z.strictObject({
        project,
        ...accountArg,
        limit,
        change: z.enum(['new', 'fixed', 'open']).optional(),
        severity: z.enum(['critical', 'warning', 'notice']).optional(),
      }),
      annotations: STORE_READ,
      run: async (a, call) => ({
        rows: grouped(
          await auditChanges(
            source,
            { ...(await filter(a, bounded(call))), change: a['change'] as 'new', severity: a['severity'] as string },
            bounded(call),
          ),
        ),
      }),
    },
  ];
}

/** The `n` rows of the latest days (rows with a `day`), in their order. */
function latest<T extends Record<string, unknown>>(rows: T[], n: number): T[] {
  if (rows.length <= n) return rows;
  const kept = new Set([...rows].sort((a, b) => String(b['day']).localeCompare(String(a['day']))).slice(0, n));
  return rows.filter((r) => kept.has(r));
}

/** Rows grouped by account_id (stable: each account's rows keep their order, so "biggest first" holds within each). */
function byAccount<T extends ResultRow>(rows: T[]): T[] {
  const key = (r: T) => String(r['account_id'] ?? '');
  return rows
    .map((r, i) => [r, i] as const)
    .sort(([a, i], [b, j]) => (key(a) === key(b) ? i - j : key(a) < key(b) ? -1 : 1))
    .map(([r]) => r);
}
