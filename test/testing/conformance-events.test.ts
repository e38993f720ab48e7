import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FORMS, useForm } from './support/forms.js';
import { startReceiver } from './support/receiver.js';

const START = Date.UTC(2025, 5, 10, 12, 0, 0);
const MINUTE = 60_000;
const DAY = 86_400_000;

describe.each(FORMS)('simulator events over $name', (form) => {
  const ctx = useForm(form, { seed: 21, now: () => START });
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  const projects = () => ctx.sim.data.listedProjects;

  beforeEach(async () => {
    receiver = await startReceiver(204);
    ctx.run.allow(receiver.url);
  });
  afterEach(async () => {
    await receiver.close();
  });

  async function subscribe(path: string, projectId: string, events: string[]): Promise<string> {
    const { status, body } = await ctx.api.send('POST', '/webhooks', {
      url: `${receiver.url}${path}`,
      project_id: projectId,
      events,
    });
    expect(status).toBe(201);
    return body.data.id as string;
  }
  const at = (path: string) => receiver.received.filter((r) => r.path === path).map((r) => r.body);

  it('delivers audit transitions only to subscriptions whose project and events match', async () => {
    const [first, second] = projects();
    await subscribe('/a', first!.id, ['audit.started', 'audit.completed']);
    await subscribe('/b', first!.id, ['keywords.updated']);
    await subscribe('/c', second!.id, ['audit.completed']);
    await subscribe('/d', second!.id, ['audit.started']);
    const crawling = ctx.sim.data.audits(first!.id).find((a) => a.status === 'crawling')!;
    const pending = ctx.sim.data.audits(second!.id).find((a) => a.status === 'pending')!;

    const deliveries = await ctx.sim.advance(60 * MINUTE);

    expect(deliveries).toHaveLength(receiver.received.length);
    expect(deliveries.every((d) => d.ok && d.status === 204)).toBe(true);
    // Seeded subscriptions are paused: nothing leaves the machine.
    expect(ctx.sim.deliveries.every((d) => d.url.startsWith(receiver.url))).toBe(true);
    for (const body of receiver.received.map((r) => r.body))
      expect(Object.keys(body).sort()).toEqual(['data', 'event', 'project_id', 'timestamp']);
    expect(at('/a')).toEqual([
      {
        event: 'audit.completed',
        timestamp: expect.any(String),
        project_id: first!.id,
        data: { audit_id: crawling.id, target_url: crawling.target_url, pages_crawled: expect.any(Number) },
      },
    ]);
    expect(at('/b')).toEqual([]);
    expect(at('/c').map((e) => [e.event, e.data.audit_id])).toEqual([['audit.completed', pending.id]]);
    expect(at('/d')).toEqual([
      {
        event: 'audit.started',
        timestamp: new Date(START + MINUTE).toISOString(),
        project_id: second!.id,
        data: { audit_id: pending.id, target_url: pending.target_url, max_crawl_pages: pending.max_crawl_pages },
      },
    ]);
    expect(receiver.received[0]!.headers['content-type']).toBe('application/json');

    // After audit.completed, the result is read from audits/latest.
    const latest = await ctx.api.get(`/projects/${first!.id}/audits/latest`);
    expect(latest.body.data.id).toBe(crawling.id);
    expect(latest.body.data.completed_at).toBe(at('/a')[0].timestamp);
    expect(latest.body.data.pages_crawled).toBe(at('/a')[0].data.pages_crawled);
    const trial = projects().find((p) => p.status === 'trial')!;
    expect((await ctx.api.get(`/projects/${trial.id}/audits/latest`)).status).toBe(200);
  });

  it('fires keywords.updated once per project per daily scan and moves the rankings', async () => {
    const [first, second] = projects();
    await subscribe('/kw1', first!.id, ['keywords.updated']);
    await subscribe('/kw2', second!.id, ['keywords.updated']);
    const before = await ctx.api.get(`/projects/${first!.id}/rankings/keywords`, { limit: 5 });
    await ctx.sim.advance(DAY);
    const events = at('/kw1');
    expect(events).toHaveLength(1);
    expect(events[0].data).toEqual({
      keywords_updated: expect.any(Number),
      job_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    expect(events[0].data.keywords_updated).toBeGreaterThan(0);
    expect(events[0].data.keywords_updated).toBeLessThanOrEqual(ctx.sim.data.keywords(first!.id).count);
    expect(events[0].timestamp).toBe(new Date(Date.UTC(2025, 5, 11, 2)).toISOString());
    expect(at('/kw2')).toHaveLength(1);
    const after = await ctx.api.get(`/projects/${first!.id}/rankings/keywords`, { limit: 5 });
    const moved = before.body.data.filter(
      (row: { last_checked: string }, i: number) => after.body.data[i].last_checked > row.last_checked,
    );
    expect(moved.length).toBeGreaterThan(0);
    await ctx.sim.advance(2 * DAY);
    expect(at('/kw1')).toHaveLength(3);
  });

  it('delivers prompt analyses and content calendar events with the documented data', async () => {
    const [first] = projects();
    await subscribe('/p', first!.id, ['prompts.updated', 'content.created', 'content.status_changed']);
    const unchecked = ctx.sim.data.prompts(first!.id).find((p) => p.last_checked === null)!;
    await ctx.sim.advance(3 * DAY);
    const events = at('/p');
    const prompt = events.find((e) => e.event === 'prompts.updated' && e.data.prompt_id === unchecked.id);
    expect(prompt.data).toEqual({
      prompt_id: unchecked.id,
      visibility_percentage: expect.any(Number),
      average_position: expect.any(Number),
      best_model: expect.stringContaining('/'),
      models_checked: 4,
    });
    const detail = await ctx.api.get(`/projects/${first!.id}/prompts/${unchecked.id}`);
    expect(detail.body.data.last_checked).not.toBeNull();
    expect(detail.body.data.visibility_percentage).toBe(
      events.filter((e) => e.data.prompt_id === unchecked.id).at(-1).data.visibility_percentage,
    );
    const created = events.filter((e) => e.event === 'content.created');
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(Object.keys(created[0].data).sort()).toEqual(['content_id', 'content_type', 'scheduled_date', 'title']);
    expect((await ctx.api.get(`/projects/${first!.id}/content/${created[0].data.content_id}`)).status).toBe(200);
    const changed = events.filter((e) => e.event === 'content.status_changed');
    expect(changed.length).toBeGreaterThan(0);
    for (const e of changed)
      expect(['Approved', 'Published', 'Needs Approval', 'Revising']).toContain(e.data.new_status);
    // Events arrive in time order, so the last one per item is its current status.
    const lastStatus = new Map<string, string>(changed.map((e) => [e.data.content_id, e.data.new_status]));
    for (const [id, status] of lastStatus)
      expect((await ctx.api.get(`/projects/${first!.id}/content/${id}`)).body.data.status).toBe(status);
    const stamps = ctx.sim.deliveries.map((d) => d.at);
    expect([...stamps].sort((a, b) => a - b)).toEqual(stamps);
  });

  it('sends a test delivery on demand and reports the outcome', async () => {
    const id = await subscribe('/t', projects()[0]!.id, ['audit.completed']);
    const { status, body } = await ctx.api.send('POST', `/webhooks/${id}/test`);
    expect(status).toBe(200);
    expect(body.data).toEqual({ webhook_id: id, delivered: true, status_code: 204 });
    expect(at('/t')).toEqual([
      {
        event: 'webhook.test',
        timestamp: new Date(START).toISOString(),
        project_id: projects()[0]!.id,
        data: expect.objectContaining({ webhook_id: id }),
      },
    ]);
  });

  it('stops delivering to a deleted or paused subscription', async () => {
    const [first] = projects();
    const paused = await subscribe('/paused', first!.id, ['keywords.updated']);
    const gone = await subscribe('/gone', first!.id, ['keywords.updated']);
    await ctx.api.send('PATCH', `/webhooks/${paused}`, { active: false });
    await ctx.api.send('DELETE', `/webhooks/${gone}`);
    await ctx.sim.advance(DAY);
    expect(receiver.received).toHaveLength(0);
  });
});
