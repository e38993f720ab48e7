import { describe, expect, test } from 'vitest';
import type { CallSpec, Transport } from '../../../src/core/transport/transport.js';
import { InvalidArgumentError } from '../../../src/index.js';
import { Audits } from '../../../src/resources/audits.js';
import { Backlinks } from '../../../src/resources/backlinks.js';
import { Content } from '../../../src/resources/content.js';
import { Projects } from '../../../src/resources/projects.js';
import { Prompts } from '../../../src/resources/prompts.js';
import { Rankings } from '../../../src/resources/rankings.js';
import { Reports } from '../../../src/resources/reports.js';
import { Webhooks } from '../../../src/resources/webhooks/index.js';

const P = '3f2b9c4e-8a1d-4c6e-9b7a-2d5e1f0a6c3b';
const X = '9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a';

/** A transport that records each CallSpec and answers an empty page. */
function recorder() {
  const specs: Array<CallSpec<unknown>> = [];
  const transport = {
    request: async (spec: CallSpec<unknown>) => (specs.push(spec), { data: [], meta: {} }),
  } as unknown as Transport;
  return { specs, transport };
}

describe('ApiResource', () => {
  test('every call carries its route template, and the template filled in is the path', async () => {
    const { specs, transport } = recorder();
    const r = {
      projects: new Projects(transport),
      rankings: new Rankings(transport),
      prompts: new Prompts(transport),
      audits: new Audits(transport),
      backlinks: new Backlinks(transport),
      content: new Content(transport),
      reports: new Reports(transport),
      webhooks: new Webhooks(transport),
    };
    await Promise.allSettled([
      r.projects.list(),
      r.projects.create({ websiteUrl: 'https://example.com' }),
      r.rankings.list(P),
      r.rankings.history(P, X),
      r.prompts.list(P),
      r.prompts.get(P, X),
      r.prompts.history(P, X),
      r.audits.list(P),
      r.audits.latest(P),
      r.audits.issues(P, X),
      r.backlinks.list(P),
      r.backlinks.summary(P),
      r.backlinks.history(P),
      r.backlinks.anchors(P),
      r.backlinks.domains(P),
      r.content.list(P),
      r.content.get(P, X),
      r.content.getPreferences(P),
      r.content.updatePreferences(P, { preferences: 'x' }),
      r.reports.list(P),
      r.reports.create(P),
      r.reports.get(P, 'q3/board'),
      r.reports.delete(P, 'q3/board'),
      r.webhooks.list(),
      r.webhooks.create({ url: 'https://example.com/h', project_id: P, events: ['audit.completed'] }),
      r.webhooks.get(X),
      r.webhooks.update(X, { events: ['audit.started'] }),
      r.webhooks.delete(X),
      r.webhooks.test(X),
    ]);
    expect(specs).toHaveLength(29);
    const values: Record<string, string> = {
      projectId: P,
      keywordId: X,
      promptId: X,
      auditId: X,
      contentId: X,
      webhookId: X,
      reportId: 'q3%2Fboard',
    };
    for (const spec of specs) {
      expect(spec.template, spec.path).toMatch(/^\/(projects|webhooks)/);
      expect(spec.template!.replace(/\{(\w+)\}/g, (_, name: string) => values[name]!)).toBe(spec.path);
    }
    expect(specs.map((s) => s.template)).toContain('/projects/{projectId}/rankings/keywords/{keywordId}/history');
  });

  test('nothing is checked or sent before the promise is used', async () => {
    const { specs, transport } = recorder();
    const pending = new Audits(transport).latest('not-a-uuid');
    expect(specs).toHaveLength(0);
    await expect(pending).rejects.toBeInstanceOf(InvalidArgumentError);
    expect(specs).toHaveLength(0);
  });
});
