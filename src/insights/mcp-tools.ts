import * as z from 'zod';
import { DEFAULT_DAYS, aiVisibility, auditChanges, backlinkChanges, rankChanges } from './queries.js';
import { oneStatement } from './one-statement.js';
import { describeSchema } from './schema-docs.js';
import type { InsightSource, QueryLimits } from './source.js';

/** The limits of the MCP server's queries. @internal */
export interface ToolLimits {
  /** Rows one `sql` call returns at most (and the cap on every `limit`). */
  maxRows: number;
  /** Statement time limit, in milliseconds. */
  timeoutMs: number;
}

/** One tool: its name, description, input schema and what it does. @internal */
export interface ToolDef {
  name: string;
  description: string;
  input: z.ZodObject;
  run(args: Record<string, unknown>): Promise<unknown>;
}

const project = z.string().min(1).optional().describe('only this project (its id); all projects when absent');
const days = z.number().int().min(1).max(366).optional().describe(`period length in days, ending at each project's latest data (default ${DEFAULT_DAYS})`);

/** The read tools over a store: schema, sql and the four insight views. @internal */
export function storeTools(source: InsightSource, limits: ToolLimits): ToolDef[] {
  const limit = z.number().int().min(1).max(limits.maxRows).optional().describe(`rows at most (default 50, at most ${limits.maxRows})`);
  const bounded: QueryLimits = { timeoutMs: limits.timeoutMs };
  const rows = (n: unknown) => (typeof n === 'number' ? n : 50);
  return [
    {
      name: 'schema',
      description: 'The tables and insight views of the synced store, every column with its description. Start here before writing SQL.',
      input: z.strictObject({}),
      run: async () => describeSchema(source),
    },
    {
      name: 'sql',
      description: `Runs one read-only SQL statement (${source.dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL'}) over the store and returns at most max_rows rows, under a ${limits.timeoutMs} ms time limit. Writes are refused. The views rank_changes, ai_visibility, ai_visibility_models, backlink_changes, backlink_trend and audit_changes hold periods of 7, 28 and 90 days.`,
      input: z.strictObject({
        query: z.string().min(1).describe('one SELECT statement'),
        max_rows: z.number().int().min(1).max(limits.maxRows).optional().describe(`rows at most (default and cap ${limits.maxRows})`),
      }),
      run: async (args) => {
        const maxRows = (args['max_rows'] as number | undefined) ?? limits.maxRows;
        const statement = oneStatement(String(args['query']), source.dialect);
        const result = await source.query(statement, [], { maxRows, timeoutMs: limits.timeoutMs });
        return {
          rows: result.rows,
          row_count: result.rows.length,
          truncated: result.truncated,
          ...(result.truncated ? { note: `Cut at ${maxRows} rows (the row cap): add a WHERE, an aggregate or a LIMIT to see what matters.` } : {}),
        };
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
      run: async (a) => ({ rows: await rankChanges(source, { project: a['project'] as string, days: a['days'] as number, limit: rows(a['limit']), device: a['device'] as string, movement: a['movement'] as string }, bounded) }),
    },
    {
      name: 'ai_visibility',
      description: "How visible the brand is in each AI model's answers over a period, against the previous period of the same length (models), and per prompt and day (daily).",
      input: z.strictObject({ project, days, limit, model: z.string().min(1).optional().describe("one model, e.g. 'openai/gpt-5'") }),
      run: (a) => aiVisibility(source, { project: a['project'] as string, days: a['days'] as number, limit: rows(a['limit']), model: a['model'] as string }, bounded),
    },
    {
      name: 'backlink_changes',
      description: 'Referring domains gained and lost over a period (domains), and the daily referring-domain trend over it (trend).',
      input: z.strictObject({ project, days, limit, change: z.enum(['gained', 'lost']).optional() }),
      run: (a) => backlinkChanges(source, { project: a['project'] as string, days: a['days'] as number, limit: rows(a['limit']), change: a['change'] as 'gained' }, bounded),
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
      run: async (a) => ({ rows: await auditChanges(source, { project: a['project'] as string, limit: rows(a['limit']), change: a['change'] as 'new', severity: a['severity'] as string }, bounded) }),
    },
  ];
}
