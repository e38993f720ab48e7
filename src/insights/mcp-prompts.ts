import * as z from 'zod';
import { checkAccount, isFleet } from './account-choice.js';
import { InsightError } from './errors.js';
import { briefRows } from './mcp-brief.js';
import { fitPromptText } from './mcp-output.js';
import type { ToolCall, ToolLimits, ToolScope } from './mcp-tools.js';
import { chooseProject } from './project-choice.js';
import { aiVisibility, auditChanges, backlinkChanges, rankChanges } from './queries.js';
import type { InsightSource } from './source.js';

/** One MCP prompt: a question teams ask every week, answered from the synced store. @internal */
export interface PromptDef {
  name: string;
  description: string;
  /** Its arguments (strings, as MCP prompts take them). */
  args: Record<string, z.ZodType<string | undefined>>;
  /** The message the client sends its model; `call.signal` aborts when the client cancels the request. */
  text(args: Record<string, string | undefined>, call?: ToolCall): Promise<string>;
}

/** Rows of each list a prompt puts before the model: the biggest moves, not every keyword. */
const ROWS = 10;

const ARGS = {
  project: z.string().min(1).describe('the project: its id or its name'),
  days: z
    .string()
    .regex(/^\d{1,3}$/)
    .optional()
    .describe('period length in days (default 7)'),
};

/**
 * The prompts for the questions teams ask every week, a project's weekly pulse and what to tell a
 * client. Each reads the synced store when the client asks for it (no API request, so no budget),
 * puts the period's figures in the message, and asks the model to answer from them and the store
 * tools only. The project is looked up within `scope.account` (`mcp --account`); in a fleet
 * warehouse without it, the prompts take an `account` argument too, and a project name found in two
 * accounts asks which one.
 * @example `storePrompts(source, limits, { account: 'acme' })[0].text({ project: 'Acme Outdoor' })`
 * @internal
 */
export function storePrompts(source: InsightSource, limits: ToolLimits, scope: ToolScope = {}): PromptDef[] {
  const open = isFleet(source) && scope.account === undefined;
  const args = open
    ? {
        ...ARGS,
        account: z
          .string()
          .min(1)
          .optional()
          .describe(
            "the project's account in the fleet warehouse (its account_id); needed when the project's name or id is in two accounts",
          ),
      }
    : ARGS;
  const facts = async (a: Record<string, string | undefined>, call?: ToolCall) => {
    const days = a['days'] === undefined ? 7 : Number(a['days']);
    if (!Number.isInteger(days) || days < 1 || days > 366)
      throw new InsightError(
        'usage',
        `days must be a whole number of days from 1 to 366, got ${JSON.stringify(a['days'])}`,
      );
    const bounded = { timeoutMs: limits.timeoutMs, signal: call?.signal };
    const asked = open ? a['account'] : scope.account;
    if (open && asked !== undefined) await checkAccount(source, asked, 'account', bounded);
    const { id: project, account } = await chooseProject(
      source,
      String(a['project'] ?? ''),
      { account: asked },
      bounded,
    );
    const filter = { project, account, days, limit: ROWS };
    const [moves, visibility, backlinks, audit] = [
      await rankChanges(source, { ...filter, moved: true }, bounded),
      await aiVisibility(source, filter, bounded),
      await backlinkChanges(source, filter, bounded),
      await auditChanges(source, { project, account, limit: ROWS }, bounded),
    ];
    return {
      period_days: days,
      /** How the message names the project: its name as asked, and its account in a fleet warehouse. */
      named: `${JSON.stringify(a['project'])}${account === undefined ? '' : ` (account ${JSON.stringify(account)})`}`,
      facts: {
        rank_changes: briefRows(moves),
        ai_visibility_models: briefRows(visibility.models.slice(0, ROWS)),
        backlink_changes: briefRows(backlinks.domains),
        audit_changes: briefRows(audit),
      },
    };
  };
  const rules =
    'Answer from these figures and the store tools (rank_changes, ai_visibility, backlink_changes, audit_changes, sql); they cost no API request, so do not call the api tool. ' +
    'A negative rank change is an improvement (the keyword moved up). Say when a figure rests on few AI responses, and when there is no completed audit yet.';
  return [
    {
      name: 'weekly_pulse',
      description:
        "A project's week in one read: ranking moves, AI visibility by model, referring domains gained and lost, new audit issues. From the synced store, no API request.",
      args,
      text: async (a, call) => {
        const { period_days, named, facts: data } = await facts(a, call);
        const ask = `Give me the weekly pulse of the SEO project ${named} over the last ${period_days} days: at most five bullets, the biggest change first, each with its figure, then one line on what to look at next. ${rules}\n\nThe figures, from the synced store:\n`;
        return fitPromptText(ask, data, limits.maxBytes);
      },
    },
    {
      name: 'client_update',
      description:
        'What to tell a client about the last period: a short plain-language update (wins, risks, next steps) for the project. From the synced store, no API request.',
      args,
      text: async (a, call) => {
        const { period_days, named, facts: data } = await facts(a, call);
        const ask = `Draft a short update for the client of the SEO project ${named} on the last ${period_days} days, in plain language for a non-specialist: two or three wins, the risks worth their attention, and the next steps we propose. No jargon, no internal ids, and no claim the figures do not support. ${rules}\n\nThe figures, from the synced store:\n`;
        return fitPromptText(ask, data, limits.maxBytes);
      },
    },
  ];
}
