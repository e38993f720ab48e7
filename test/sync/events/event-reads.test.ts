/**
 * What an event's read costs: `prompts.updated` reads that prompt's history only (not the whole
 * project's), and no read lists the projects again while the store holds a recent complete list;
 * a project deleted since answers 404 and is reported, never read into.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, test } from 'vitest';
import { SeoVisibilityClient, type WebhookEvent } from '../../../src/index.js';
import { createEventSync, type EventSyncReport, runSync, sqliteStore } from '../../../src/sync/index.js';
import { createSimulator } from '../../../src/testing/index.js';

const T0 = Date.UTC(2026, 5, 10, 12, 0, 0);
const DAY = 86_400_000;
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fetch that answers 404 for everything about `gone` and leaves it out of the project list: a project deleted. */
function deleting(fetch: typeof globalThis.fetch, gone: Set<string>): typeof globalThis.fetch {
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const id = [...gone].find((g) => url.pathname.includes(`/projects/${g}`));
    if (id)
      return new Response(
        JSON.stringify({
          success: false,
          error: { code: 'NOT_FOUND', message: 'Project not found' },
          meta: { request_id: 'req_gone' },
        }),
        { status: 404, headers: { 'content-type': 'application/json' } },
      );
    const response = await fetch(input, init);
    if (!url.pathname.endsWith('/projects')) return response;
    const body = (await response.json()) as { data: Array<{ id: string }> };
    return Response.json(
      { ...body, data: body.data.filter((p) => !gone.has(p.id)) },
      { status: response.status, headers: response.headers },
    );
  };
}

function account() {
  const sim = createSimulator({ seed: 7, keywordsPerProject: 30, now: () => T0, rateLimit: false });
  const gone = new Set<string>();
  const client = new SeoVisibilityClient({
    apiKey: sim.keys.readOnly,
    baseUrl: sim.baseUrl,
    fetch: deleting(sim.fetch, gone),
    rateLimit: { windows: false },
  });
  const dir = mkdtempSync(join(tmpdir(), 'sv-event-reads-'));
  dirs.push(dir);
  const path = join(dir, 'copy.db');
  const reports: EventSyncReport[] = [];
  const now = () => sim.now();
  const eventSync = createEventSync(client, {
    store: sqliteStore(path),
    now,
    settleMs: 5,
    onSync: (r) => reports.push(r),
  });
  const paths = () => sim.requests.map((r) => r.path);
  return { sim, client, path, eventSync, reports, now, gone, paths };
}

const keywordsUpdated = (projectId: string, at: number): WebhookEvent => ({
  event: 'keywords.updated',
  timestamp: new Date(at).toISOString(),
  project_id: projectId,
  data: { keywords_updated: 30, job_id: `job-${at}` },
});

describe('prompts.updated reads that prompt only', () => {
  test("after the nightly sync and a day of analyses: one request, the prompt's history, not the project's", async () => {
    const { sim, client, path, eventSync, reports, now, paths } = account();
    const project = sim.data.listedProjects.find((p) => sim.data.prompts(p.id).length > 2)!;
    await runSync(
      client,
      { projects: 'all', datasets: ['prompts.list', 'prompts.history'] },
      { store: sqliteStore(path), now },
    );
    await sim.advance(DAY); // every prompt is analysed again
    const prompt = sim.data.prompts(project.id)[1]!;
    sim.reset();
    await eventSync.handle({
      event: 'prompts.updated',
      timestamp: new Date(now()).toISOString(),
      project_id: project.id,
      data: {
        prompt_id: prompt.id,
        visibility_percentage: 50,
        average_position: 2,
        best_model: 'openai/gpt-4o',
        models_checked: 3,
      },
    });
    expect(paths()).toEqual([`/projects/${project.id}/prompts/${prompt.id}/history`]);
    expect(reports).toMatchObject([
      { projectId: project.id, datasets: ['prompts.history'], status: 'completed', requests: 1 },
    ]);
    const db = new DatabaseSync(path);
    const newest = db
      .prepare('SELECT max(checked_at) AS t FROM prompts_history WHERE project_id = ? AND prompt_id = ?')
      .get(project.id, prompt.id) as { t: string };
    db.close();
    expect(Date.parse(newest.t)).toBeGreaterThan(T0);
  });

  test('a prompt the store has never seen is read whole, and a burst of two prompts reads two histories', async () => {
    const { sim, eventSync, reports, now, paths } = account();
    const project = sim.data.listedProjects.find((p) => sim.data.prompts(p.id).length > 2)!;
    const [a, b] = sim.data.prompts(project.id);
    const at = new Date(now()).toISOString();
    const event = (id: string): WebhookEvent => ({
      event: 'prompts.updated',
      timestamp: at,
      project_id: project.id,
      data: { prompt_id: id, visibility_percentage: 1, average_position: 1, best_model: 'x/y', models_checked: 1 },
    });
    await Promise.all([eventSync.handle(event(a!.id)), eventSync.handle(event(b!.id))]);
    // An empty store knows no project list yet: the one list, then the two histories (whole: their pages), never the prompt list.
    expect([...new Set(paths())].sort()).toEqual(
      [
        '/projects',
        `/projects/${project.id}/prompts/${a!.id}/history`,
        `/projects/${project.id}/prompts/${b!.id}/history`,
      ].sort(),
    );
    expect(paths().filter((p) => p === '/projects')).toHaveLength(1);
    expect(reports).toMatchObject([{ events: 2, status: 'completed', requests: paths().length }]);
  });
});

describe('no GET /projects per event', () => {
  test('after the nightly sync, three events of three projects cost one request each', async () => {
    const { sim, client, path, eventSync, reports, now, paths } = account();
    await runSync(client, { projects: 'all', datasets: ['rankings.list'] }, { store: sqliteStore(path), now });
    const projects = sim.data.listedProjects.slice(0, 3).map((p) => p.id);
    sim.reset();
    for (const [i, id] of projects.entries()) await eventSync.handle(keywordsUpdated(id, now() + i));
    expect(paths()).toEqual(projects.map((id) => `/projects/${id}/rankings/keywords`));
    expect(reports.map((r) => r.requests)).toEqual([1, 1, 1]);
  });

  test('a list older than projectListMaxAgeMs, or one without the project, is read again', async () => {
    const { sim, client, path, now, paths } = account();
    await runSync(client, { projects: 'all', datasets: ['rankings.list'] }, { store: sqliteStore(path), now });
    const id = sim.data.listedProjects[0]!.id;
    const strict = createEventSync(client, { store: sqliteStore(path), now, settleMs: 1, projectListMaxAgeMs: 0 });
    await sim.advance(1000);
    sim.reset();
    await strict.handle(keywordsUpdated(id, now()));
    expect(paths()).toEqual(['/projects', `/projects/${id}/rankings/keywords`]);
  });

  test('a project deleted since the list: its event is reported unknown_project, nothing read into it, and the next one checks a fresh list', async () => {
    const { sim, client, path, eventSync, reports, now, gone, paths } = account();
    await runSync(client, { projects: 'all', datasets: ['rankings.list'] }, { store: sqliteStore(path), now });
    const id = sim.data.listedProjects[1]!.id;
    gone.add(id);
    sim.reset();
    await eventSync.handle(keywordsUpdated(id, now()));
    expect(reports).toMatchObject([{ projectId: id, status: 'unknown_project' }]);
    await eventSync.handle(keywordsUpdated(id, now() + 1));
    expect(reports).toMatchObject([{ status: 'unknown_project' }, { status: 'unknown_project', requests: 0 }]);
    // The 404 was answered by the deletion (never reaching the simulator); the second event read the list.
    expect(paths()).toEqual(['/projects']);
  });
});
