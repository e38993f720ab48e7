/**
 * Quick start: a one-screen summary of a project — top movers, AI visibility per model, the latest
 * audit, backlinks and upcoming content.
 *
 * Without a key, against the built-in simulator (from a clone of this repository):
 *   npm run demo:quick-start
 * With a key, against the service:
 *   SEO_VISIBILITY_API_KEY=… SEO_VISIBILITY_BASE_URL=https://…/api/v1 npx tsx examples/quick-start.ts
 */
import { NotFoundError, type KeywordRanking, SeoVisibilityClient } from 'seo-visibility';

const client = new SeoVisibilityClient(); // reads SEO_VISIBILITY_API_KEY and SEO_VISIBILITY_BASE_URL
const out = (line = '') => process.stdout.write(`${line}\n`);
const bold = (text: string) => (process.stdout.isTTY ? `\x1b[1m${text}\x1b[0m` : text);

const projects = await client.projects.list({ limit: 10 });
const project = projects.items[0];
if (!project) {
  out('No projects on this account yet: create one with client.projects.create({ websiteUrl }).');
  process.exit(0);
}
out(bold(`${project.name} — ${project.websiteUrl} (${project.productMode}, ${project.status})`));

// Every keyword, 1,000 per request, with a progress line while it pages.
const keywords: KeywordRanking[] = [];
for await (const page of client.rankings.list(project.id).pages()) {
  keywords.push(...page.items);
  const total = page.pagination?.total;
  if (process.stderr.isTTY)
    process.stderr.write(`\r  reading keywords… ${keywords.length}${total ? ` / ${total}` : ''}`);
}
if (process.stderr.isTTY) process.stderr.write('\r\x1b[2K');

const movers = [...keywords].sort((a, b) => b.net_change - a.net_change);
out();
out(bold(`Top movers (of ${keywords.length} keywords, net change over desktop + mobile + AI mode + maps)`));
for (const kw of movers.slice(0, 5)) out(`  ▲ ${String(kw.net_change).padStart(4)}  ${kw.keyword} (${kw.location})`);
for (const kw of movers.slice(-3).reverse())
  out(`  ▼ ${String(kw.net_change).padStart(4)}  ${kw.keyword} (${kw.location})`);

// AI visibility: how often each model shows the brand, over every tracked prompt.
const byModel = new Map<string, { visible: number; checks: number }>();
for await (const prompt of client.prompts.list(project.id)) {
  for (const [model, response] of Object.entries(prompt.latest_responses)) {
    const entry = byModel.get(model) ?? { visible: 0, checks: 0 };
    entry.checks++;
    if (response.is_visible) entry.visible++;
    byModel.set(model, entry);
  }
}
out();
out(bold('AI visibility per model'));
for (const [model, { visible, checks }] of [...byModel].sort(
  (a, b) => b[1].visible / b[1].checks - a[1].visible / a[1].checks,
)) {
  const share = visible / checks;
  out(
    `  ${model.padEnd(28)} ${'█'.repeat(Math.round(share * 20)).padEnd(20, '·')} ${(share * 100).toFixed(0)}% of ${checks} prompts`,
  );
}

out();
try {
  const audit = await client.audits.latest(project.id);
  out(bold(`Latest audit (${audit.completed_at?.slice(0, 10) ?? 'in progress'}, ${audit.pages_crawled} pages)`));
  out(
    `  critical ${audit.critical_issues} · warning ${audit.warning_issues} · notice ${audit.notice_issues} · passed checks ${audit.issues_summary.passed}`,
  );
} catch (error) {
  if (!(error instanceof NotFoundError)) throw error;
  out(bold('Latest audit')); // 404 means no audit has completed yet
  out('  none completed yet');
}

const backlinks = await client.backlinks.summary(project.id);
out();
out(bold('Backlinks'));
out(
  `  ${backlinks.total_backlinks} backlinks from ${backlinks.total_referring_domains} domains · dofollow ${backlinks.dofollow_backlinks} · broken ${backlinks.broken_backlinks}`,
);

const today = new Date();
const upcoming = await client.content.list(project.id, { date_from: today, limit: 5 });
out();
out(bold('Upcoming content'));
for (const item of upcoming.items)
  out(`  ${item.scheduled_date.slice(0, 10)}  ${item.status.padEnd(15)} ${item.title}`);
if (upcoming.items.length === 0) out('  nothing scheduled');
