/**
 * Prompt visibility report: for each tracked prompt, which AI models show the brand, and the
 * sources they cite most.
 *
 * Without a key, against the built-in simulator (from a clone of this repository):
 *   npm run example examples/prompt-visibility-report.ts
 * With a key, against the service (the first project unless you pass an id):
 *   SEO_VISIBILITY_API_KEY=… SEO_VISIBILITY_BASE_URL=https://…/api/v1 npx tsx examples/prompt-visibility-report.ts [projectId]
 */
import { SeoVisibilityClient } from 'seo-visibility';

const client = new SeoVisibilityClient();
const projectId = process.argv[2] ?? (await client.projects.list({ limit: 1 })).items[0]?.id;
if (!projectId) throw new Error('No project: pass a project id');

const prompts = await client.prompts.list(projectId, { limit: 5 });
for (const prompt of prompts.items) {
  console.log(
    `\n“${prompt.prompt}” — visible in ${prompt.visibility_percentage}% of checks, best on ${prompt.best_model}`,
  );
  for (const [model, response] of Object.entries(prompt.latest_responses)) {
    console.log(
      `  ${response.is_visible ? '✔' : '✘'} ${model.padEnd(28)} ${response.is_visible ? `position ${response.position}` : 'not shown'}`,
    );
  }
  // History is paginated over responses; count cited domains across the last 90 days.
  const cited = new Map<string, number>();
  for await (const response of client.prompts.history(projectId, prompt.id, { limit: 200 })) {
    for (const citation of response.citations) cited.set(citation.domain, (cited.get(citation.domain) ?? 0) + 1);
  }
  const top = [...cited].sort((a, b) => b[1] - a[1]).slice(0, 3);
  if (top.length > 0) console.log(`  most cited: ${top.map(([domain, n]) => `${domain} (${n})`).join(', ')}`);
}
