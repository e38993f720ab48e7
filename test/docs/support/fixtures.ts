/**
 * What a JSDoc example may assume, built fresh for each example from a seeded simulator: a client,
 * ids of records that exist, records as the SDK returns them, and stand-ins for the reader's own
 * code. Every value comes from a real call, so an example that runs here runs for a reader who
 * has just made those calls. Deliveries are recorded in memory (nothing leaves the process), and
 * the simulator also listens on 127.0.0.1 so a client built from SEO_VISIBILITY_API_KEY and
 * SEO_VISIBILITY_BASE_URL talks to the same data.
 */
import { trace } from '@opentelemetry/api';
import { keywordIdOf, NotFoundError, type RateGate, SeoVisibilityClient } from 'seo-visibility';
import { createSimulator, type Simulator } from 'seo-visibility/testing';
import { parseWebhookEvent } from 'seo-visibility/webhooks';
import { type SyncJob, sqliteStore } from '../../../src/sync/index.js';
import { type FleetAccounts, createFleet } from '../../../src/fleet/index.js';
import type { FixtureName } from './fixture-names.js';

/** Builds the fixtures of one example; `close()` stops its loopback server. */
export async function makeFixtures() {
  // No rate windows: 200 examples in a row must not wait out a minute. The client keeps its own.
  const sim: Simulator = createSimulator({
    seed: 1,
    rateLimit: false,
    deliver: async () => new Response(null, { status: 204 }),
  });
  const server = await sim.listen({ port: 0 });
  process.env.SEO_VISIBILITY_API_KEY = sim.keys.readWrite;
  process.env.SEO_VISIBILITY_BASE_URL = server.url;
  const client = new SeoVisibilityClient({ apiKey: sim.keys.readWrite, baseUrl: sim.baseUrl, fetch: sim.fetch });

  // The project an example means: the first one that has a completed audit.
  const projects = (await client.projects.list()).items;
  let project = projects[0]!;
  let latest: Awaited<ReturnType<typeof client.audits.latest>> | undefined;
  for (const candidate of projects) {
    latest = await client.audits.latest(candidate.id).catch((caught: unknown) => {
      if (caught instanceof NotFoundError) return undefined;
      throw caught;
    });
    if (latest) {
      project = candidate;
      break;
    }
  }
  if (!latest) throw new Error('fixtures: no project of seed 1 has a completed audit');
  const projectId = project.id;
  const kw = (await client.rankings.list(projectId, { limit: 1 })).items[0]!;
  const keywordId = keywordIdOf(kw)!;
  const prompt = (await client.prompts.list(projectId, { limit: 1 })).items[0]!;
  const response = (await client.prompts.history(projectId, prompt.id, { limit: 1 })).items[0]!;
  const audit = (await client.audits.list(projectId, { limit: 1 })).items[0]!;
  const issues = (await client.audits.issues(projectId, latest.id, { limit: 20 })).items;
  const items = (await client.content.list(projectId, { limit: 20 })).items;
  const url = 'http://127.0.0.1:9/hooks/seo';
  const hook = await client.webhooks.create({
    url,
    project_id: projectId,
    events: ['audit.completed', 'keywords.updated'],
  });
  await client.webhooks.test(hook.id!);
  const delivery = sim.deliveries.at(-1);
  if (!delivery) throw new Error('fixtures: the test delivery was not recorded');
  const report = await client.reports.create(projectId, { name: 'Q3 visibility' });
  const error = await client.prompts.get(projectId, '00000000-0000-4000-8000-000000000000').then(
    () => new Error('fixtures: expected a 404'),
    (caught: unknown) => caught,
  );
  const history = await client.rankings.history(projectId, keywordId);
  const backlinkHistory = await client.backlinks.history(projectId);
  const noop = (..._args: unknown[]): void => undefined;
  // The fleet examples' accounts, with their keys where the examples read them (ACME_KEY, GLOBEX_KEY).
  process.env.ACME_KEY = sim.keys.readOnly;
  process.env.GLOBEX_KEY = sim.keys.readOnly;
  const postgres = process.env.DATABASE_URL ?? '';
  const small = { projects: [projectId], datasets: ['rankings.list' as const] };
  const accounts = {
    acme: { apiKey: sim.keys.readOnly, job: small, client: { baseUrl: server.url } },
    globex: { apiKey: sim.keys.readOnly, job: small, client: { baseUrl: server.url } },
  } satisfies FleetAccounts;
  // Quick hand-over and polling, so a worker run by an example settles in seconds.
  const fleet = createFleet({
    postgres,
    accounts,
    queue: { name: 'jsdoc-examples', pollingIntervalSeconds: 1, checkIntervalSeconds: 1, retryDelaySeconds: 1 },
  });
  // The client's own local throttle, as a gate factory receives it (createGate runs in the constructor).
  let gate: RateGate | undefined;
  new SeoVisibilityClient({
    apiKey: sim.keys.readWrite,
    baseUrl: sim.baseUrl,
    fetch: sim.fetch,
    rateLimit: { gate: { createGate: (context) => (gate = context.localGate()) } },
  });
  if (!gate) throw new Error('fixtures: createGate was not called by the constructor');

  const fixtures = {
    sim,
    client,
    controller: new AbortController(),
    headers: { authorization: `Bearer ${sim.keys.readOnly}` },
    url,
    clock: sim.now(),
    userTypedKey: sim.keys.readWrite,
    projectId,
    keywordId,
    promptId: prompt.id,
    auditId: latest.id,
    contentId: items[0]!.id,
    webhookId: hook.id!,
    reportId: String(report.id),
    project,
    projects,
    kw,
    audit,
    issues,
    items,
    prompt,
    response,
    history,
    backlinkHistory,
    e: parseWebhookEvent(delivery.payload),
    rawBody: JSON.stringify(delivery.payload),
    error,
    save: async (_item: unknown): Promise<void> => undefined,
    spinner: { start: noop, stop: noop },
    metrics: { increment: noop, observe: noop, count: noop },
    publish: noop,
    notifyBilling: noop,
    refreshAudit: async (..._args: unknown[]): Promise<void> => undefined,
    refreshRankings: async (..._args: unknown[]): Promise<void> => undefined,
    retry: noop,
    scheduleRetry: (_ms: number): void => undefined,
    tracer: trace.getTracer('jsdoc-examples'),
    provider: trace.getTracerProvider(),
    gate,
    job: { projects: [projectId], datasets: ['rankings.list'] } satisfies SyncJob as SyncJob,
    store: sqliteStore(':memory:'),
    postgres,
    key: sim.keys.readOnly,
    accounts,
    fleet,
    vault: { read: async (_path: string): Promise<string> => sim.keys.readOnly },
  } satisfies Record<FixtureName, unknown>;
  return { fixtures, close: () => Promise.all([server.close(), fleet.close()]).then(() => undefined) };
}

/** The values in scope of every example. */
export type Fixtures = Awaited<ReturnType<typeof makeFixtures>>['fixtures'];
