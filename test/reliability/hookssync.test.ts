/**
 * Issue 25 §2, the parts a second look found not holding: two `ensureWebhooks` at once left two
 * subscriptions per project; an event's read listed the projects again each time, and a
 * `prompts.updated` read the whole project's prompt histories; a subscription that went silent
 * went unnoticed. Each row is one of them, tried again against the simulator (its fetch, no socket).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, test } from 'vitest';
import { SeoVisibilityClient } from '../../src/index.js';
import { createEventSync, type EventSyncReport, runSync, sqliteStore } from '../../src/sync/index.js';
import { createSimulator } from '../../src/testing/index.js';
import { createWebhookReceiver, ensureWebhooks, generateWebhookSecret } from '../../src/webhooks/index.js';
import { useReport } from './support/report.js';

const report = useReport('hookssync');
const T0 = Date.UTC(2026, 5, 10, 12, 0, 0);
const HOUR = 3_600_000;
const BASE = 'https://hooks.example.com/hooks/seo';
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function account(seed: number) {
  const secret = generateWebhookSecret();
  const receiver = createWebhookReceiver({ secret, path: '/hooks/seo', retry: { attempts: 1 } });
  const sim = createSimulator({
    seed,
    keywordsPerProject: 10,
    now: () => T0,
    rateLimit: false,
    deliver: (url, init) => receiver.fetch(new Request(url, init)),
  });
  const now = () => sim.now();
  const client = () =>
    new SeoVisibilityClient({
      apiKey: sim.keys.readWrite,
      baseUrl: sim.baseUrl,
      fetch: sim.fetch,
      rateLimit: { windows: false },
    });
  const dir = mkdtempSync(join(tmpdir(), 'sv-hookssync-'));
  dirs.push(dir);
  const path = join(dir, 'copy.db');
  const reports: EventSyncReport[] = [];
  const eventSync = createEventSync(client(), {
    store: sqliteStore(path),
    now,
    settleMs: 0,
    onSync: (r) => reports.push(r),
  });
  return { sim, secret, receiver, now, client, path, eventSync, reports };
}

describe('subscriptions', () => {
  test('two ensureWebhooks at once converge on one subscription per project', async () => {
    const { sim, client } = account(3);
    const secret = generateWebhookSecret();
    await Promise.all([
      ensureWebhooks(client(), { url: BASE, secret }),
      ensureWebhooks(client(), { url: BASE, secret }),
    ]);
    const projects = sim.data.listedProjects.map((p) => p.id);
    const counts = projects.map(
      (p) => sim.data.webhooks().filter((w) => w.project_id === p && w.url.startsWith(`${BASE}/`)).length,
    );
    report.check({
      area: 'Webhooks: subscriptions',
      input: 'two ensureWebhooks with the same URL and secret at once (no idempotency key)',
      cases: projects.length,
      expected: `${projects.length} projects with 1 subscription each`,
      observed: counts.every((n) => n === 1)
        ? `${projects.length} projects with 1 subscription each`
        : `subscriptions per project: ${counts.join(', ')}`,
      serverSaw: `${sim.requests.filter((r) => r.method === 'POST').length} POST, ${sim.requests.filter((r) => r.method === 'DELETE').length} DELETE`,
    });
  });
});

describe('what an event costs', () => {
  test("prompts.updated after a day of analyses reads that prompt's history only", async () => {
    const { sim, client, path, eventSync, now } = account(7);
    const project = sim.data.listedProjects.find((p) => sim.data.prompts(p.id).length > 2)!;
    await runSync(
      client(),
      { projects: 'all', datasets: ['prompts.list', 'prompts.history'] },
      { store: sqliteStore(path), now },
    );
    await sim.advance(24 * HOUR);
    const prompt = sim.data.prompts(project.id)[1]!;
    sim.reset();
    await eventSync.handle({
      event: 'prompts.updated',
      timestamp: new Date(now()).toISOString(),
      project_id: project.id,
      data: {
        prompt_id: prompt.id,
        visibility_percentage: 1,
        average_position: 1,
        best_model: 'x/y',
        models_checked: 1,
      },
    });
    const paths = [
      ...new Set(sim.requests.map((r) => r.path.replace(project.id, '{p}').replace(prompt.id, '{prompt}'))),
    ];
    report.check({
      area: 'Webhooks: events that sync',
      input: 'prompts.updated for one prompt, the nightly copy a day old (every prompt analysed since)',
      cases: 1,
      expected: 'read: /projects/{p}/prompts/{prompt}/history',
      observed: `read: ${paths.join(', ')}`,
      expectedServer: '1 request',
      serverSaw: `${sim.requests.length} request${sim.requests.length === 1 ? '' : 's'}`,
    });
  });

  test('keywords.updated of every project after the nightly sync: no project list per event', async () => {
    const { sim, client, path, eventSync, now } = account(5);
    await runSync(client(), { projects: 'all', datasets: ['rankings.list'] }, { store: sqliteStore(path), now });
    const projects = sim.data.listedProjects.map((p) => p.id);
    sim.reset();
    for (const [i, id] of projects.entries())
      await eventSync.handle({
        event: 'keywords.updated',
        timestamp: new Date(now() + i).toISOString(),
        project_id: id,
        data: { keywords_updated: 10, job_id: `j${i}` },
      });
    const lists = sim.requests.filter((r) => r.path === '/projects').length;
    report.check({
      area: 'Webhooks: events that sync',
      input: `keywords.updated of each of ${projects.length} projects, one at a time, after the nightly sync`,
      cases: projects.length,
      expected: '0 project lists',
      observed: `${lists} project list${lists === 1 ? '' : 's'}`,
      expectedServer: `${projects.length} requests (1 per event)`,
      serverSaw: `${sim.requests.length} requests (${Number((sim.requests.length / projects.length).toFixed(2))} per event)`,
    });
  });

  test('an event of a project deleted since the list is reported, not read into, not failed', async () => {
    const { sim, client, path, reports, now } = account(7);
    await runSync(client(), { projects: 'all', datasets: ['rankings.list'] }, { store: sqliteStore(path), now });
    const gone = sim.data.listedProjects[0]!.id;
    sim.reset();
    const deleting: typeof fetch = async (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      if (url.pathname.includes(`/projects/${gone}`))
        return Response.json(
          { success: false, error: { code: 'NOT_FOUND', message: 'Project not found' }, meta: { request_id: 'r' } },
          { status: 404 },
        );
      return sim.fetch(input, init);
    };
    const eventSync = createEventSync(
      new SeoVisibilityClient({
        apiKey: sim.keys.readOnly,
        baseUrl: sim.baseUrl,
        fetch: deleting,
        rateLimit: { windows: false },
      }),
      { store: sqliteStore(path), now, settleMs: 0, onSync: (r) => reports.push(r) },
    );
    const outcome = await eventSync
      .handle({
        event: 'keywords.updated',
        timestamp: new Date(now()).toISOString(),
        project_id: gone,
        data: { keywords_updated: 1, job_id: 'j' },
      })
      .then(
        () => 'resolved',
        (e: Error) => `rejected: ${e.message}`,
      );
    report.check({
      area: 'Webhooks: events that sync',
      input: 'keywords.updated of a project deleted after the nightly sync listed it (404)',
      cases: 1,
      expected: 'resolved; reported unknown_project',
      observed: `${outcome}; reported ${reports.map((r) => r.status).join(', ')}`,
      expectedServer: '0 rows read for it (its one request answered 404)',
      serverSaw: `${sim.requests.filter((r) => r.path.includes(gone) && r.status === 200).length} rows read for it (its one request answered 404)`,
    });
  });
});

describe('a silent subscription', () => {
  test("the nightly sync names the missed events of the one project whose subscription is gone, and no other's", async () => {
    const { sim, secret, receiver, client, path, eventSync, now } = account(11);
    eventSync.attach(receiver);
    await ensureWebhooks(client(), { url: BASE, secret });
    const [silent] = sim.data.listedProjects.map((p) => p.id);
    await client().webhooks.delete(
      sim.data.webhooks().find((w) => w.project_id === silent && w.url.startsWith(`${BASE}/`))!.id!,
    );
    const nightly = () =>
      runSync(
        client(),
        { projects: 'all', datasets: ['rankings.list', 'prompts.list', 'audits.list', 'content.list'] },
        { store: sqliteStore(path), now },
      );
    const missed = [];
    for (let night = 0; night < 2; night++) {
      for (let h = 0; h < 24; h++) {
        await sim.advance(HOUR);
        await receiver.idle();
        await eventSync.idle();
      }
      missed.push(...((await nightly()).missedEvents ?? []));
    }
    const elsewhere = missed.filter((m) => m.projectId !== silent).length;
    const names = [...new Set(missed.filter((m) => m.projectId === silent).map((m) => m.event))].sort();
    const both = names.includes('keywords.updated') && names.includes('prompts.updated');
    report.check({
      area: 'Webhooks: a silent subscription',
      input: "one project's subscription deleted, two days of events to the others, two nightly syncs",
      cases: sim.data.listedProjects.length,
      expected: 'keywords.updated and prompts.updated named for the silent project; 0 events named for the others',
      observed: `${both ? 'keywords.updated and prompts.updated' : `only ${names.join(', ') || 'nothing'}`} named for the silent project; ${elsewhere} events named for the others`,
      serverSaw: `${sim.deliveries.length} deliveries; named for the silent project: ${names.join(', ')}`,
    });
  });
});
