import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createSimulator, type Simulator, type SimulatorServer } from '../../src/testing/index.js';
import { ForbiddenError, NotFoundError, RateLimitedError, SeoVisibilityClient, keywordIdOf } from '../../src/index.js';
import { parseWebhookEvent } from '../../src/webhooks/index.js';
import { windowStartClock } from '../helpers/clock.js';

// The SDK against the simulator's real HTTP server, over a real socket on 127.0.0.1: the same
// client users run, end to end (issue 3: integration tests beside the msw unit tests).
let sim: Simulator;
let server: SimulatorServer;
let client: SeoVisibilityClient;
let projectId: string;

beforeAll(async () => {
  sim = createSimulator({ seed: 7, rateLimit: false });
  server = await sim.listen({ port: 0 });
  client = new SeoVisibilityClient({
    apiKey: sim.keys.readWrite,
    baseUrl: server.url,
    retryBackoff: { initialDelay: 1, maxDelay: 5 },
  });
  projectId = sim.data.listedProjects[0]!.id;
});
afterAll(async () => {
  await server.close();
});

describe('SDK over HTTP against the simulator', () => {
  test('projects: lists only the listed statuses, filters by product mode, creates a software project', async () => {
    const all = [];
    for await (const project of client.projects.list()) all.push(project.id);
    expect(all.sort()).toEqual(sim.data.listedProjects.map((p) => p.id).sort());
    for await (const project of client.projects.list({ product_mode: 'managed' }))
      expect(project.productMode).toBe('managed');
    const created = await client.projects.create({ websiteUrl: 'https://new-site.example' });
    expect(created).toMatchObject({
      websiteUrl: 'https://new-site.example',
      productMode: 'software',
      plan: { active: expect.any(Boolean) },
    });
  });

  test('rankings: iterates every keyword exactly once in 1,000-row pages, then reads one history', async () => {
    const before = sim.requests.length;
    const ids = new Set<string>();
    let count = 0;
    for await (const keyword of client.rankings.list(projectId)) {
      ids.add(keywordIdOf(keyword)!);
      count++;
    }
    const expected = sim.data.keywords(projectId).count;
    expect(count).toBe(expected);
    expect(ids.size).toBe(expected);
    expect(sim.requests.length - before).toBe(Math.ceil(expected / 1000));
    const history = await client.rankings.history(projectId, [...ids][0]!);
    expect(history.history.length).toBeGreaterThan(80);
    expect(history.summary.data_points).toBe(history.history.length);
  });

  test('prompts: list, detail, and history iterated over responses', async () => {
    const page = await client.prompts.list(projectId);
    const prompt = page.items[0]!;
    const detail = await client.prompts.get(projectId, prompt.id);
    expect(detail.ai_models.length).toBeGreaterThan(1);
    let responses = 0;
    for await (const response of client.prompts.history(projectId, prompt.id, { limit: 25 })) {
      expect(detail.ai_models).toContain(response.model);
      responses++;
    }
    const first = await client.prompts.history(projectId, prompt.id, { limit: 25 });
    expect(responses).toBe(first.pagination?.total);
  });

  test('audits: latest completed, issues ordered by severity then affected count', async () => {
    const latest = await client.audits.latest(projectId);
    expect(latest.status).toBe('completed');
    const rank = { critical: 0, warning: 1, notice: 2 } as Record<string, number>;
    const issues = [];
    for await (const issue of client.audits.issues(projectId, latest.id)) issues.push(issue);
    const sorted = [...issues].sort(
      (a, b) => rank[a.severity]! - rank[b.severity]! || b.affected_count - a.affected_count,
    );
    expect(issues.map((i) => i.id)).toEqual(sorted.map((i) => i.id));
    const failed = issues.filter((i) => i.status === 'failed').length;
    expect(latest.total_issues).toBe(failed);
  });

  test('backlinks: targets, summary, history, every anchor, domains', async () => {
    const [targets, summary, history, domains] = await Promise.all([
      client.backlinks.list(projectId),
      client.backlinks.summary(projectId),
      client.backlinks.history(projectId),
      client.backlinks.domains(projectId),
    ]);
    expect(targets.length).toBeGreaterThan(0);
    expect(summary.total_backlinks).toBe(summary.dofollow_backlinks + summary.nofollow_backlinks);
    expect(history.history.length).toBeGreaterThan(0);
    expect(domains.length).toBeGreaterThan(0);
    let anchors = 0;
    for await (const anchor of client.backlinks.anchors(projectId, { limit: 7 })) anchors += anchor.count > 0 ? 1 : 0;
    expect(anchors).toBe(sim.data.backlinks(projectId).anchors.length);
  });

  test('content: list without meta.pagination iterates to the end; detail; preferences round-trip', async () => {
    let items = 0;
    for await (const item of client.content.list(projectId, { limit: 4 })) items += item.id ? 1 : 0;
    expect(items).toBe(sim.data.content(projectId).length);
    const first = (await client.content.list(projectId, { limit: 1 })).items[0]!;
    expect((await client.content.get(projectId, first.id)).content_body).toContain('<');
    await client.content.updatePreferences(projectId, { preferences: 'Tone: plain.' });
    expect(await client.content.getPreferences(projectId)).toMatchObject({ preferences: 'Tone: plain.' });
  });

  test('reports: create, read, delete, then gone', async () => {
    const report = await client.reports.create(projectId, { name: 'Q4 visibility' });
    const slug = (report.id ?? report.slug)!;
    expect(await client.reports.get(projectId, slug)).toMatchObject({ name: 'Q4 visibility' });
    await client.reports.delete(projectId, slug);
    await expect(client.reports.get(projectId, slug)).rejects.toBeInstanceOf(NotFoundError);
  });

  test('webhooks: a subscription receives a delivery that parseWebhookEvent accepts', async () => {
    const received: unknown[] = [];
    const { createServer } = await import('node:http');
    const receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        received.push(parseWebhookEvent(body));
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const port = (receiver.address() as { port: number }).port;
    const hook = await client.webhooks.create({
      url: `http://127.0.0.1:${port}/hooks`,
      project_id: projectId,
      events: ['audit.completed'],
    });
    expect(await client.webhooks.get(hook.id!)).toMatchObject({ events: ['audit.completed'] });
    await client.webhooks.update(hook.id!, { events: ['audit.completed', 'keywords.updated'] });
    await client.webhooks.test(hook.id!);
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ project_id: projectId });
    await client.webhooks.delete(hook.id!);
    await expect(client.webhooks.get(hook.id!)).rejects.toBeInstanceOf(NotFoundError);
    receiver.close();
  });

  test('a read-only key gets ForbiddenError on writes and nothing changes', async () => {
    const readOnly = new SeoVisibilityClient({ apiKey: sim.keys.readOnly, baseUrl: server.url });
    const before = sim.data.reports(projectId).length;
    await expect(readOnly.reports.create(projectId)).rejects.toBeInstanceOf(ForbiddenError);
    expect(sim.data.reports(projectId).length).toBe(before);
    await expect(readOnly.reports.list(projectId)).resolves.toBeInstanceOf(Array);
  });

  test('with the simulator limits off, the reported budget never runs down (no client-side pacing kicks in)', async () => {
    const first = await client.backlinks.summary(projectId).withResponse();
    for (let i = 0; i < 5; i++) await client.backlinks.summary(projectId);
    const last = await client.backlinks.summary(projectId).withResponse();
    expect(last.meta.rate_limit?.remaining).toBe(first.meta.rate_limit?.remaining);
    expect(last.meta.rate_limit!.remaining).toBeGreaterThan(1_000_000);
  });

  test('an enforced window: RateLimitedError when the reset is further than maxQueueWait', async () => {
    const limited = createSimulator({
      seed: 7,
      now: windowStartClock(60_000),
      rateLimit: { windows: [{ limit: 2, intervalMs: 60_000 }] },
    });
    const http = await limited.listen({ port: 0 });
    try {
      const impatient = new SeoVisibilityClient({
        apiKey: limited.keys.readWrite,
        baseUrl: http.url,
        maxQueueWait: 1_000,
        rateLimit: { windows: false },
      });
      const project = limited.data.listedProjects[0]!.id;
      await impatient.backlinks.summary(project);
      await impatient.backlinks.summary(project);
      const error = await impatient.backlinks.summary(project).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RateLimitedError);
      expect((error as RateLimitedError).retryAfterMs).toBeGreaterThan(1_000);
      // The throttle knew the budget was spent: the third call was never sent.
      expect(limited.requests.filter((r) => r.status === 429)).toHaveLength(0);
    } finally {
      await http.close();
    }
  });
});
