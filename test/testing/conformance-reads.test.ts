import { describe, expect, it } from 'vitest';
import { FORMS, useForm } from './support/forms.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe.each(FORMS)('simulator reads over $name', (form) => {
  const ctx = useForm(form, { seed: 11 });
  const first = () => ctx.sim.data.listedProjects[0]!.id;

  it('wraps every success in the envelope with request id and rate limit', async () => {
    const { status, body } = await ctx.api.get('/projects');
    expect(status).toBe(200);
    expect(body.success).toBe(true);
    expect(body.meta.request_id).toMatch(/^req_[0-9a-f]{16}$/);
    expect(body.meta.rate_limit).toEqual({ limit: 200, remaining: 199, reset: expect.any(Number) });
    expect(body.meta.rate_limit.reset).toBeGreaterThan(Date.now() / 1000);
    expect(body.meta.rate_limit.reset).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 60);
  });

  it('lists only trial/active/past_due projects, paginated and filterable by product_mode', async () => {
    const all = ctx.sim.data.projects;
    expect(all.some((p) => p.status === 'cancelled')).toBe(true);
    const { body } = await ctx.api.get('/projects', { limit: 2 });
    expect(body.meta.pagination).toEqual({ total: 4, limit: 2, offset: 0, has_more: true });
    const rest = await ctx.api.get('/projects', { limit: 2, offset: 2 });
    expect(rest.body.meta.pagination.has_more).toBe(false);
    const ids = [...body.data, ...rest.body.data].map((p: { id: string }) => p.id);
    expect(ids).toEqual(ctx.sim.data.listedProjects.map((p) => p.id));
    expect(
      [...body.data, ...rest.body.data].every((p: { status: string }) =>
        ['trial', 'active', 'past_due'].includes(p.status),
      ),
    ).toBe(true);
    const managed = await ctx.api.get('/projects', { product_mode: 'managed' });
    expect(managed.body.data.length).toBe(2);
    expect(managed.body.data.every((p: { productMode: string }) => p.productMode === 'managed')).toBe(true);
  });

  it.each([
    ['/projects', { limit: 501 }],
    ['/projects', { limit: 0 }],
    ['/projects', { limit: '1.5' }],
    ['/projects', { offset: -1 }],
    ['/projects', { product_mode: 'hybrid' }],
  ])('rejects bad list parameters on %s %j with 400 VALIDATION_ERROR', async (path, query) => {
    const { status, body } = await ctx.api.get(path, query);
    expect(status).toBe(400);
    expect(body).toMatchObject({
      success: false,
      error: { code: 'VALIDATION_ERROR' },
      meta: { request_id: expect.any(String) },
    });
  });

  it('paginates keywords over the whole table with ids, up to 1000 per page', async () => {
    const table = ctx.sim.data.keywords(first());
    const page = await ctx.api.get(`/projects/${first()}/rankings/keywords`);
    expect(page.body.meta.pagination).toEqual({ total: table.count, limit: 50, offset: 0, has_more: true });
    expect(page.body.data[0]).toEqual(table.row(0));
    expect(page.body.data[0].id).toMatch(UUID);
    const last = await ctx.api.get(`/projects/${first()}/rankings/keywords`, { limit: 1000, offset: table.count - 10 });
    expect(last.body.data.length).toBe(10);
    expect(last.body.meta.pagination.has_more).toBe(false);
    expect((await ctx.api.get(`/projects/${first()}/rankings/keywords`, { limit: 1001 })).status).toBe(400);
    expect((await ctx.api.get(`/projects/${first()}/rankings/keywords`, { device: 'tablet' })).status).toBe(400);
    expect((await ctx.api.get(`/projects/${first()}/rankings/keywords`, { date_from: 'yesterday' })).status).toBe(400);
    // device=desktop/mobile returns the same rows (documented choice: every row has both positions).
    const desktop = await ctx.api.get(`/projects/${first()}/rankings/keywords`, { device: 'desktop' });
    expect(desktop.body.data).toEqual(page.body.data);
  });

  it('filters keywords by last check date', async () => {
    const table = ctx.sim.data.keywords(first());
    const latestScan = Array.from({ length: table.count }, (_, i) => table.lastCheckDay(i)).reduce((a, b) =>
      Math.max(a, b),
    );
    const scanDate = new Date(latestScan * 86_400_000).toISOString().slice(0, 10);
    const fresh = await ctx.api.get(`/projects/${first()}/rankings/keywords`, { date_from: scanDate, limit: 1 });
    const stale = await ctx.api.get(`/projects/${first()}/rankings/keywords`, {
      date_to: new Date((latestScan - 1) * 86_400_000).toISOString().slice(0, 10),
      limit: 1000,
    });
    expect(stale.body.meta.pagination.total).toBeGreaterThan(0);
    expect(fresh.body.meta.pagination.total + stale.body.meta.pagination.total).toBe(table.count);
    expect(stale.body.data.every((k: { last_checked: string }) => k.last_checked < scanDate)).toBe(true);
  });

  it('serves 90 days of keyword history with a consistent summary', async () => {
    const row = ctx.sim.data.keywords(first()).row(3);
    const { body } = await ctx.api.get(`/projects/${first()}/rankings/keywords/${row.id}/history`);
    expect(body.data.keyword_id).toBe(row.id);
    expect(body.data.history.length).toBe(90);
    expect(body.data.summary.data_points).toBe(90);
    const desktop = body.data.history.map((h: { desktop_position: number }) => h.desktop_position);
    expect(body.data.summary.best_position).toBe(Math.min(...desktop));
    expect(body.data.summary.worst_position).toBe(Math.max(...desktop));
    const last = body.data.history.at(-1);
    expect(last.check_date).toBe(row.last_checked);
    expect(last.desktop_position).toBe(row.desktop_position);
    const narrow = await ctx.api.get(`/projects/${first()}/rankings/keywords/${row.id}/history`, {
      date_from: body.data.history[80].check_date,
    });
    expect(narrow.body.data.history.length).toBe(10);
    const unknown = await ctx.api.get(
      `/projects/${first()}/rankings/keywords/00000000-0000-4000-8000-000000000000/history`,
    );
    expect(unknown.status).toBe(404);
    expect((await ctx.api.get(`/projects/${first()}/rankings/keywords/not-a-uuid/history`)).status).toBe(400);
  });

  it('serves prompts with per-model responses, details and paginated history', async () => {
    const list = await ctx.api.get(`/projects/${first()}/prompts`, { limit: 200 });
    expect(list.body.meta.pagination.total).toBe(ctx.sim.data.prompts(first()).length);
    expect((await ctx.api.get(`/projects/${first()}/prompts`, { limit: 201 })).status).toBe(400);
    const checked = list.body.data.find((p: { last_checked: string | null }) => p.last_checked !== null);
    expect(Object.keys(checked.latest_responses).sort()).toEqual([
      'anthropic/claude-sonnet-4',
      'google/gemini-2.5-pro',
      'openai/gpt-5',
      'perplexity/sonar',
    ]);
    expect(list.body.data.some((p: { last_checked: string | null }) => p.last_checked === null)).toBe(true);
    const detail = await ctx.api.get(`/projects/${first()}/prompts/${checked.id}`);
    expect(detail.body.data).toMatchObject({
      id: checked.id,
      ai_models: expect.any(Array),
      last_analyzed: checked.last_checked,
      last_volume_update: expect.any(String),
    });
    const history = await ctx.api.get(`/projects/${first()}/prompts/${checked.id}/history`, { limit: 8 });
    expect(history.body.data.prompt_id).toBe(checked.id);
    expect(history.body.data.responses.length).toBe(8);
    expect(history.body.meta.pagination.total % 4).toBe(0);
    const times = history.body.data.responses.map((r: { checked_at: string }) => r.checked_at);
    expect([...times].sort().reverse()).toEqual(times);
    expect(
      history.body.data.responses[0].citations.every(
        (c: object) => Object.keys(c).sort().join() === 'domain,title,url',
      ),
    ).toBe(true);
    expect((await ctx.api.get(`/projects/${first()}/prompts/00000000-0000-4000-8000-000000000000`)).status).toBe(404);
  });

  it('lists audits newest first, filters by status, and orders issues by severity then affected count', async () => {
    const audits = await ctx.api.get(`/projects/${first()}/audits`);
    const created = audits.body.data.map((a: { created_at: string }) => a.created_at);
    expect([...created].sort().reverse()).toEqual(created);
    expect(audits.body.data.find((a: { status: string }) => a.status === 'crawling').completed_at).toBeNull();
    const completed = await ctx.api.get(`/projects/${first()}/audits`, { status: 'completed' });
    expect(completed.body.data.every((a: { status: string }) => a.status === 'completed')).toBe(true);
    expect((await ctx.api.get(`/projects/${first()}/audits`, { status: 'done' })).status).toBe(400);
    const latest = await ctx.api.get(`/projects/${first()}/audits/latest`);
    expect(latest.body.data.id).toBe(completed.body.data[0].id);
    const issues = await ctx.api.get(`/projects/${first()}/audits/${latest.body.data.id}/issues`, { limit: 1000 });
    const rank = { critical: 0, warning: 1, notice: 2 } as Record<string, number>;
    const data = issues.body.data as Array<{ severity: string; affected_count: number; status: string }>;
    for (let i = 1; i < data.length; i++) {
      const [a, b] = [data[i - 1]!, data[i]!];
      expect(
        rank[a.severity]! < rank[b.severity]! || (a.severity === b.severity && a.affected_count >= b.affected_count),
      ).toBe(true);
    }
    // Counts exclude dismissed issues, which are served as passed.
    expect(latest.body.data.total_issues).toBe(data.filter((i) => i.status === 'failed').length);
    expect(latest.body.data.issues_summary).toEqual({
      passed: data.length - latest.body.data.total_issues,
      failed: latest.body.data.total_issues,
      total: data.length,
    });
    const critical = await ctx.api.get(`/projects/${first()}/audits/${latest.body.data.id}/issues`, {
      severity: 'critical',
      status: 'failed',
    });
    expect(
      critical.body.data.every(
        (i: { severity: string; status: string }) => i.severity === 'critical' && i.status === 'failed',
      ),
    ).toBe(true);
    expect(critical.body.meta.pagination.total).toBe(latest.body.data.critical_issues);
    expect((await ctx.api.get(`/projects/${first()}/audits/00000000-0000-4000-8000-000000000000/issues`)).status).toBe(
      404,
    );
  });

  it('answers 404 for latest audit when no audit has completed', async () => {
    const trial = ctx.sim.data.listedProjects.find((p) => p.status === 'trial')!;
    const { status, body } = await ctx.api.get(`/projects/${trial.id}/audits/latest`);
    expect(status).toBe(404);
    expect(body.error.code).toBe('NOT_FOUND');
  });

  it('paginates backlink anchors only', async () => {
    const anchors = await ctx.api.get(`/projects/${first()}/backlinks/anchors`, { limit: 100 });
    expect(anchors.body.meta.pagination).toMatchObject({
      total: ctx.sim.data.backlinks(first()).anchors.length,
      limit: 100,
      has_more: true,
    });
    for (const path of ['', '/summary', '/history', '/domains']) {
      const { status, body } = await ctx.api.get(`/projects/${first()}/backlinks${path}`);
      expect(status).toBe(200);
      expect(body.meta.pagination).toBeUndefined();
    }
    const history = await ctx.api.get(`/projects/${first()}/backlinks/history`);
    const sum = history.body.data.history.reduce((s: number, h: { new_backlinks: number }) => s + h.new_backlinks, 0);
    expect(history.body.data.summary.total_new).toBe(sum);
  });

  it('serves the content list without meta.pagination, filtered by status and date', async () => {
    const all = ctx.sim.data.content(first());
    const page = await ctx.api.get(`/projects/${first()}/content`, { limit: 10 });
    expect(page.body.meta.pagination).toBeUndefined();
    expect(page.body.data.map((c: { id: string }) => c.id)).toEqual(all.slice(0, 10).map((c) => c.id));
    expect(page.body.data[0].content_body).toBeUndefined();
    const tail = await ctx.api.get(`/projects/${first()}/content`, { limit: 10, offset: all.length - 3 });
    expect(tail.body.data.length).toBe(3);
    const approved = await ctx.api.get(`/projects/${first()}/content`, { status: 'Needs Approval', limit: 1000 });
    expect(approved.body.data.length).toBe(all.filter((c) => c.status === 'Needs Approval').length);
    const from = all[20]!.scheduled_date;
    const later = await ctx.api.get(`/projects/${first()}/content`, { date_from: from, limit: 1000 });
    expect(later.body.data.length).toBe(all.length - 20);
    const withBody = all.find((c) => c.content_body !== null)!;
    const detail = await ctx.api.get(`/projects/${first()}/content/${withBody.id}`);
    expect(detail.body.data.content_body).toContain('<h1>');
    expect(detail.body.data.meta_data).toMatchObject({
      word_count: expect.any(Number),
      reading_time: expect.any(Number),
    });
    expect((await ctx.api.get(`/projects/${first()}/content/00000000-0000-4000-8000-000000000000`)).status).toBe(404);
  });

  it('hides cancelled projects and soft-deleted reports, forbids other accounts', async () => {
    const cancelled = ctx.sim.data.projects.find((p) => p.status === 'cancelled')!;
    expect((await ctx.api.get(`/projects/${cancelled.id}/audits`)).status).toBe(404);
    expect((await ctx.api.get(`/projects/00000000-0000-4000-8000-000000000000/prompts`)).status).toBe(404);
    expect((await ctx.api.get(`/projects/..%2Fwebhooks/prompts`)).status).toBe(400);
    const foreign = await ctx.api.get(`/projects/${ctx.sim.data.foreignProjectId}/backlinks`);
    expect(foreign.status).toBe(403);
    expect(foreign.body.error.code).toBe('FORBIDDEN');
    const [deleted] = ctx.sim.data.deletedReportIds(first());
    expect((await ctx.api.get(`/projects/${first()}/reports/${deleted}`)).status).toBe(404);
    const reports = await ctx.api.get(`/projects/${first()}/reports`);
    expect(reports.body.data.map((r: { id: string }) => r.id)).not.toContain(deleted);
  });

  it('answers 401 with the documented message, still carrying meta', async () => {
    const res = await fetch(`${ctx.run.baseUrl}/projects`, { headers: { authorization: 'Bearer sv_live_nope' } });
    const body = await res.json();
    expect(res.status).toBe(401);
    expect(body).toMatchObject({
      success: false,
      error: { code: 'UNAUTHORIZED', message: 'Invalid API key' },
      meta: { request_id: expect.any(String), rate_limit: expect.any(Object) },
    });
    expect((await fetch(`${ctx.run.baseUrl}/projects`)).status).toBe(401);
  });
});
