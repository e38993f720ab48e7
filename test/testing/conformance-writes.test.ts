import { describe, expect, it } from 'vitest';
import { FORMS, useForm } from './support/forms.js';

describe.each(FORMS)('simulator writes and scopes over $name', (form) => {
  const ctx = useForm(form, { seed: 5 });
  const first = () => ctx.sim.data.listedProjects[0]!.id;

  it('answers 403 FORBIDDEN to a read-only key on every non-GET, changing nothing', async () => {
    const hook = ctx.sim.data.webhooks()[0]!;
    const report = ctx.sim.data.reports(first())[0]!;
    const writes: Array<[string, string, unknown]> = [
      ['POST', '/projects', { websiteUrl: 'https://ro.example' }],
      ['PATCH', `/projects/${first()}/content/preferences`, { preferences: 'x' }],
      ['POST', `/projects/${first()}/reports`, {}],
      ['DELETE', `/projects/${first()}/reports/${report.id}`, undefined],
      ['POST', '/webhooks', { url: 'https://a.example', project_id: first(), events: ['audit.started'] }],
      ['PATCH', `/webhooks/${hook.id}`, { active: true }],
      ['DELETE', `/webhooks/${hook.id}`, undefined],
      ['POST', `/webhooks/${hook.id}/test`, undefined],
    ];
    for (const [method, path, body] of writes) {
      const { status, body: reply } = await ctx.ro.send(method, path, body);
      expect([method, path, status]).toEqual([method, path, 403]);
      expect(reply.error.code).toBe('FORBIDDEN');
    }
    expect(ctx.sim.data.listedProjects.length).toBe(4);
    expect(ctx.sim.data.webhooks()).toHaveLength(3);
    expect(ctx.sim.data.reports(first()).map((r) => r.id)).toContain(report.id);
    expect((await ctx.ro.get(`/projects/${first()}/reports/${report.id}`)).status).toBe(200);
  });

  it('creates a software project from websiteUrl with plan info, and lists it', async () => {
    const { status, body } = await ctx.api.send('POST', '/projects', {
      websiteUrl: 'https://www.blue-fox.io/',
      name: 'Blue Fox',
    });
    expect(status).toBe(201);
    expect(body.data).toMatchObject({
      name: 'Blue Fox',
      productMode: 'software',
      websiteUrl: 'https://www.blue-fox.io/',
      plan: { active: true, manageUrl: expect.stringMatching(/^https:\/\//) },
    });
    const list = await ctx.api.get('/projects', { limit: 500 });
    expect(list.body.meta.pagination.total).toBe(5);
    expect(list.body.data.map((p: { id: string }) => p.id)).toContain(body.data.id);
    const keywords = await ctx.api.get(`/projects/${body.data.id}/rankings/keywords`);
    expect(keywords.body.meta.pagination).toEqual({ total: 0, limit: 50, offset: 0, has_more: false });
    for (const bad of [
      {},
      { websiteUrl: 'not a url' },
      { websiteUrl: 'ftp://x.example' },
      { websiteUrl: 'https://x.example', name: 3 },
    ]) {
      const reply = await ctx.api.send('POST', '/projects', bad);
      expect(reply.status).toBe(400);
      expect(reply.body.error.code).toBe('VALIDATION_ERROR');
    }
  });

  it('updates content preferences only with a JSON { preferences: string } body', async () => {
    const path = `/projects/${first()}/content/preferences`;
    const ok = await ctx.api.send('PATCH', path, { preferences: 'Short sentences. British spelling.' });
    expect(ok.status).toBe(200);
    expect((await ctx.api.get(path)).body.data.preferences).toBe('Short sentences. British spelling.');
    expect((await ctx.api.send('PATCH', path, { preferences: 42 })).status).toBe(400);
    expect((await ctx.api.send('PATCH', path, {})).status).toBe(400);
    const raw = await fetch(`${ctx.run.baseUrl}${path}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${ctx.sim.keys.readWrite}` },
      body: 'preferences=x',
    });
    expect(raw.status).toBe(400);
  });

  it('creates, reads and soft-deletes reports by slug', async () => {
    const created = await ctx.api.send('POST', `/projects/${first()}/reports`, {
      name: 'Q3 Visibility',
      date_from: '2025-07-01',
      date_to: '2025-09-30',
    });
    expect(created.status).toBe(201);
    expect(created.body.data.id).toMatch(/^q3-visibility-[0-9a-f]{6}$/);
    const path = `/projects/${first()}/reports/${created.body.data.id}`;
    expect((await ctx.api.get(path)).body.data).toEqual(created.body.data);
    expect((await ctx.api.send('DELETE', path)).body.data).toEqual({ id: created.body.data.id, deleted: true });
    expect((await ctx.api.get(path)).status).toBe(404);
    expect((await ctx.api.send('DELETE', path)).status).toBe(404);
    const list = await ctx.api.get(`/projects/${first()}/reports`);
    expect(list.body.data.map((r: { id: string }) => r.id)).not.toContain(created.body.data.id);
    expect((await ctx.api.send('POST', `/projects/${first()}/reports`, { date_from: 'soon' })).status).toBe(400);
  });

  it('validates and manages webhook subscriptions', async () => {
    const valid = {
      url: 'https://hooks.acme.example/seo',
      project_id: first(),
      events: ['audit.completed', 'keywords.updated'],
    };
    const bad = [
      { ...valid, url: 'not-a-url' },
      { ...valid, project_id: 'abc' },
      { ...valid, project_id: '00000000-0000-4000-8000-000000000000' },
      { ...valid, project_id: ctx.sim.data.projects.find((p) => p.status === 'cancelled')!.id },
      { ...valid, events: [] },
      { ...valid, events: ['audit.completed', 'backlinks.updated'] },
      { url: valid.url, project_id: valid.project_id },
    ];
    for (const body of bad) expect((await ctx.api.send('POST', '/webhooks', body)).status).toBe(400);
    const created = await ctx.api.send('POST', '/webhooks', valid);
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ ...valid, id: expect.any(String), active: true });
    const path = `/webhooks/${created.body.data.id}`;
    const patched = await ctx.api.send('PATCH', path, { events: ['prompts.updated'] });
    expect(patched.body.data.events).toEqual(['prompts.updated']);
    expect(patched.body.data.url).toBe(valid.url);
    expect((await ctx.api.send('PATCH', path, { events: ['nope'] })).status).toBe(400);
    expect((await ctx.api.get('/webhooks')).body.data).toHaveLength(4);
    expect((await ctx.api.send('DELETE', path)).status).toBe(200);
    expect((await ctx.api.get(path)).status).toBe(404);
    expect((await ctx.api.get('/webhooks/not-a-uuid')).status).toBe(400);
  });

  it('answers unknown routes with 404 and wrong methods with 405, in the error envelope', async () => {
    const missing = await ctx.api.get('/nothing-here');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });
    const wrong = await ctx.api.send('PUT', '/projects');
    expect(wrong.status).toBe(405);
    expect(wrong.body.success).toBe(false);
  });
});
