import * as z from 'zod';
import type { RateLimit as ReportedBudget, SeoVisibilityClient } from '../index.js';
import { BudgetTracker } from '../sync/scheduling/budget.js';
import type { SyncWindow } from '../sync/index.js';
import { InsightError } from './errors.js';
import type { ToolDef } from './mcp-tools.js';

/** What the `api` tool calls through, and how much of the day's budget it leaves alone. @internal */
export interface LiveApi {
  client: SeoVisibilityClient;
  windows: readonly SyncWindow[];
  /** Requests of the day's budget kept free for others (the sync, people). */
  reserve: number;
  /** Whether POST, PATCH and DELETE are allowed (`--allow-writes`). */
  allowWrites: boolean;
}

/**
 * The `api` tool: one live call through the SDK (its retries, rate pacing and typed errors), GET
 * only unless writes are allowed, refused once the day's remaining budget (as the server reports
 * it, else as counted here) is down to the reserve.
 * @internal
 */
export function apiTool(live: LiveApi): ToolDef {
  const budget = new BudgetTracker({
    maxRequests: Number.POSITIVE_INFINITY,
    reserve: live.reserve,
    windows: live.windows,
    spentToday: 0,
  });
  const methods = live.allowWrites ? (['GET', 'POST', 'PATCH', 'DELETE'] as const) : (['GET'] as const);
  return {
    name: 'api',
    description: `One live call to the SEO and AI Visibility API (costs one request of the budget; the synced store answers for free). ${live.allowWrites ? 'GET, POST, PATCH or DELETE.' : 'GET only (the server was started without --allow-writes).'} Paths are below /api/v1, e.g. /projects or /projects/{id}/rankings.`,
    input: z.strictObject({
      method: z.enum(methods).optional().describe('GET by default'),
      path: z.string().min(1).describe("the path below the base URL, starting with '/'"),
      query: z
        .record(z.string(), z.union([z.string(), z.number(), z.boolean()]))
        .optional()
        .describe('query parameters'),
      body: z.unknown().optional().describe('a JSON body (not for GET)'),
    }),
    // A live call reaches the world outside the store; GET reads only and may be repeated.
    annotations: live.allowWrites
      ? { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true }
      : { readOnlyHint: true, idempotentHint: true, openWorldHint: true },
    run: async (args, toolCall) => {
      if (budget.check() === 'daily_budget') {
        throw new InsightError(
          'usage',
          `The api tool stops at the reserve of ${live.reserve} requests left in today's budget; the synced store (sql and the insight tools) still answers`,
        );
      }
      // Every attempt counts, retries included; a retry past the reserve is refused.
      const call = budget.begin();
      let report: ReportedBudget | undefined;
      try {
        const method = (args['method'] as 'GET' | undefined) ?? 'GET';
        const { data, meta } = await live.client
          .request(
            {
              method,
              path: String(args['path']),
              query: args['query'] as Record<string, string>,
              ...(args['body'] === undefined ? {} : { body: args['body'] }),
            },
            // The budget's signal, and the client's: a cancelled call stops its request.
            {
              signal: toolCall?.signal ? AbortSignal.any([call.signal, toolCall.signal]) : call.signal,
              hooks: call.hooks,
            },
          )
          .withResponse();
        report = meta.rate_limit;
        return { data, request_id: meta.request_id, rate_limit: meta.rate_limit };
      } catch (error) {
        if (call.refused)
          throw new InsightError(
            'usage',
            `The api tool stopped retrying at the reserve of ${live.reserve} requests left in today's budget; the synced store (sql and the insight tools) still answers`,
          );
        throw error;
      } finally {
        call.end(report);
      }
    },
  };
}
