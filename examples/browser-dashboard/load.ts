// What the dashboard asks the SDK for. In your app, import from 'seo-visibility' (this example
// imports the repo's source so it type-checks without a build; its test bundles the packed package).
import { RateLimitedError, SeoVisibilityClient, keywordIdOf } from '../../src/index.js';
import type { KeywordHistory, Project, WebhookEvent } from '../../src/index.js';
import { createSimulator } from '../../src/testing/index.js';
import { parseWebhookEvent } from '../../src/webhooks/index.js';
import type { Simulator } from '../../src/testing/index.js';

const DAY = 24 * 60 * 60 * 1000;

/** The first listed project and its first keyword's 90-day history. */
export interface PositionData {
  project: Project;
  history: KeywordHistory;
}

/**
 * Lists projects with `for await`, takes the first keyword of the first project, and reads its
 * daily history over the last 90 days.
 * @example `const { project, history } = await loadPositions(client, sim.now());`
 */
export async function loadPositions(client: SeoVisibilityClient, now: number): Promise<PositionData> {
  const projects: Project[] = [];
  for await (const project of client.projects.list()) projects.push(project);
  const project = projects[0];
  if (!project) throw new Error('no project');
  let keywordId: string | undefined;
  for await (const keyword of client.rankings.list(project.id, { limit: 1 })) {
    keywordId = keywordIdOf(keyword);
    break; // one keyword is all the chart needs: leaving the loop stops paging
  }
  if (!keywordId) throw new Error('no keyword');
  const history = await client.rankings.history(project.id, keywordId, {
    date_from: new Date(now - 89 * DAY),
    date_to: new Date(now),
  });
  return { project, history };
}

/**
 * The brand's AI visibility per model: the share of tracked prompts in which each model's latest
 * answer shows the brand, in percent, best first.
 * @example `const rows = await loadVisibility(client, projectId); // [{ label: 'openai/gpt-5', value: 62.5 }, …]`
 */
export async function loadVisibility(
  client: SeoVisibilityClient,
  projectId: string,
): Promise<Array<{ label: string; value: number }>> {
  const counts = new Map<string, { visible: number; total: number }>();
  for await (const prompt of client.prompts.list(projectId)) {
    for (const [model, response] of Object.entries(prompt.latest_responses)) {
      const c = counts.get(model) ?? { visible: 0, total: 0 };
      c.total += 1;
      if (response.is_visible) c.visible += 1;
      counts.set(model, c);
    }
  }
  return [...counts]
    .map(([label, c]) => ({ label, value: (100 * c.visible) / c.total }))
    .sort((a, b) => b.value - a.value);
}

/**
 * A client over a simulator whose budget is one request a minute, with client-side pacing off: the
 * second call gets a 429 whose reset is further away than `maxRetryDelay`, so it rejects at once
 * with `RateLimitedError`. Returns what the dashboard shows the user.
 * @example `const notice = await rateLimitNotice(); // 'Rate limited (429): retry after 12:01:00'`
 */
export async function rateLimitNotice(): Promise<string> {
  // The simulator's windows are aligned to its clock's minutes. On the wall clock, two calls made
  // either side of hh:mm:00 would fall into two windows and both be served (more often on a busy
  // machine); a simulator clock that stands 1 ms into the next minute keeps both in one window, and
  // that window's reset at least a minute ahead of the client's clock.
  const minute = 60_000;
  const windowStart = (Math.floor(Date.now() / minute) + 1) * minute + 1;
  const sim = createSimulator({
    seed: 2,
    now: () => windowStart,
    rateLimit: { windows: [{ limit: 1, intervalMs: minute }] },
  });
  const client = new SeoVisibilityClient({
    apiKey: sim.keys.readOnly,
    baseUrl: sim.baseUrl,
    fetch: sim.fetch,
    rateLimit: false,
    maxRetryDelay: 1_000,
    dangerouslyAllowBrowser: true,
  });
  await client.projects.list();
  try {
    await client.projects.list();
    return 'not rate limited';
  } catch (error) {
    if (!(error instanceof RateLimitedError)) throw error;
    return `Rate limited (${error.status}): retry after ${error.resetAt?.toISOString().slice(11, 19) ?? 'a while'}`;
  }
}

/**
 * Subscribes a webhook, sends a test delivery and lets a simulated day pass; the simulator's
 * `deliver` hook (standing in for your backend relaying deliveries to the page) hands each body
 * to `parseWebhookEvent`.
 * @example `const events = await collectEvents(sim, client, projectId, received);`
 */
export async function collectEvents(
  sim: Simulator,
  client: SeoVisibilityClient,
  projectId: string,
  received: string[],
): Promise<WebhookEvent[]> {
  const hook = await client.webhooks.create({
    url: 'https://dashboard.example/hooks/seo',
    project_id: projectId,
    events: ['keywords.updated', 'prompts.updated', 'audit.completed'],
  });
  if (hook.id) await client.webhooks.test(hook.id);
  await sim.advance(DAY);
  return received.map((body) => parseWebhookEvent(body));
}
