import { DAY_MS } from '../data/time.js';
import { answersBetween, promptDetail, promptRecord } from '../data/prompts.js';
import { notFound } from '../envelope.js';
import { MAX_LIMIT, dateRange, page, paginate, requireProject, uuidParam } from '../params.js';
import type { RouteContext, RouteDef } from './context.js';

function findPrompt({ store, params }: RouteContext) {
  const project = requireProject(store, params);
  const id = uuidParam(params, 'promptId');
  const prompt = store.prompts.get(project.record.id)?.find((p) => p.id === id);
  if (!prompt) throw notFound('Prompt');
  return prompt;
}

/**
 * AI visibility: prompt list (max limit 200), detail, and history paginated over
 * `data.responses` (newest first; `date_from` defaults to 90 days ago, `date_to` to now).
 *
 * @internal
 */
export const promptRoutes: RouteDef[] = [
  {
    method: 'GET',
    pattern: '/projects/:projectId/prompts',
    handler: ({ store, params, query }) => {
      const project = requireProject(store, params);
      const p = page(query, MAX_LIMIT.prompts);
      return paginate(
        (store.prompts.get(project.record.id) ?? []).map((s) => promptRecord(store.seed, s)),
        p,
      );
    },
  },
  {
    method: 'GET',
    pattern: '/projects/:projectId/prompts/:promptId',
    handler: (ctx) => ({ data: promptDetail(ctx.store.seed, findPrompt(ctx)) }),
  },
  {
    method: 'GET',
    pattern: '/projects/:projectId/prompts/:promptId/history',
    handler: (ctx) => {
      const prompt = findPrompt(ctx);
      const p = page(ctx.query, MAX_LIMIT.other);
      const [from, to] = dateRange(ctx.query, ctx.now - 90 * DAY_MS, ctx.now);
      const { data, pagination } = paginate(answersBetween(ctx.store.seed, prompt, from, to), p);
      return { data: { prompt_id: prompt.id, prompt: prompt.prompt, responses: data }, pagination };
    },
  },
];
