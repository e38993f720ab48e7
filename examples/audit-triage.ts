/**
 * Audit triage: the failed issues of the latest completed audit, worst first, grouped by severity.
 *
 * Without a key, against the built-in simulator (from a clone of this repository):
 *   npm run example examples/audit-triage.ts
 * With a key, against the service (the first project unless you pass an id):
 *   SEO_VISIBILITY_API_KEY=… SEO_VISIBILITY_BASE_URL=https://…/api/v1 npx tsx examples/audit-triage.ts [projectId]
 */
import { NotFoundError, SeoVisibilityClient, type AuditIssue } from 'seo-visibility';

const client = new SeoVisibilityClient();
const projectId = process.argv[2] ?? (await client.projects.list({ limit: 1 })).items[0]?.id;
if (!projectId) throw new Error('No project: pass a project id');

const latest = await client.audits.latest(projectId).catch((error: unknown) => {
  if (error instanceof NotFoundError) return undefined; // no audit has completed yet
  throw error;
});
if (!latest) {
  console.log('No completed audit yet.');
} else {
  console.log(`Audit of ${latest.target_url}: ${latest.total_issues} open issues over ${latest.pages_crawled} pages`);
  // The server orders issues by severity, then affected count: the first ones matter most.
  const bySeverity = new Map<string, AuditIssue[]>();
  for await (const issue of client.audits.issues(projectId, latest.id, { status: 'failed' })) {
    bySeverity.set(issue.severity, [...(bySeverity.get(issue.severity) ?? []), issue]);
  }
  for (const [severity, issues] of bySeverity) {
    console.log(`\n${severity.toUpperCase()} (${issues.length})`);
    for (const issue of issues.slice(0, 5))
      console.log(`  ${String(issue.affected_count).padStart(5)} pages  ${issue.title}`);
    // The heading counts them all: say how many the top five leave out.
    if (issues.length > 5) console.log(`  … and ${issues.length - 5} more`);
  }
}
