/**
 * Issue 23 §5, text from the API in the report: a model name, keyword or account id carrying a
 * right-to-left override (or plain right-to-left text) must not reorder the figures beside it.
 * Table cells, legend items and headings are each a bidi paragraph of their own (block boxes);
 * the places where API text runs inline with figures (the summary lines, the meta lines) must
 * isolate it, in a <bdi>.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatherReport } from '../../src/insights/report-data.js';
import { reportHtml } from '../../src/insights/report-html.js';
import type { InsightSource } from '../../src/insights/source.js';
import { useReport } from '../reliability/support/report.js';
import { fleetDb, inProcessSource as fleetSource } from './fleet-store.js';
import { inProcessSource } from './in-process-source.js';
import { REPORT_FIXTURE } from './report-fixture.js';

const report = useReport('attack23-report-bidi');
const RLO = '\u202e';
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
const HOSTILE_MODEL = `${RLO}perplexity/sonar\u2069\u202e`;

/** The inline paragraphs (summary and meta lines) with every <bdi>…</bdi> taken out. */
function inlineOutsideBdi(html: string): string[] {
  const paragraphs = html.match(/<p[ >][\s\S]*?<\/p>/g) ?? [];
  return paragraphs.map((p) => p.replace(/<bdi>[\s\S]*?<\/bdi>/g, ''));
}

let source: InsightSource & { file: string };
beforeAll(async () => {
  const hostile = structuredClone(REPORT_FIXTURE);
  for (const row of hostile['prompts.history'] ?? [])
    if (row['model'] === 'perplexity/sonar') row['model'] = HOSTILE_MODEL;
  source = await inProcessSource(hostile);
}, 60_000);
afterAll(async () => source?.close());

describe('bidi isolation of API text in the report', () => {
  it('a model name with a right-to-left override is in a <bdi> in the summary line that lists the movers', async () => {
    const projects = await gatherReport(source, { days: 7, allChanges: true });
    const html = reportHtml(projects, () => '<svg></svg>', new Date('2026-03-15T00:00:00Z'));
    expect(html).toContain('perplexity/sonar');
    const leaks = inlineOutsideBdi(html).filter((p) => BIDI.test(p));
    report.check({
      area: 'report (session 4): hostile text',
      input: 'a model name with U+202E (RLO) and a stray U+2069, in the summary beside its figures',
      cases: 1,
      expected: 'no bidi control outside a <bdi> in any paragraph',
      observed: leaks.length
        ? `${leaks.length} paragraph(s): ${JSON.stringify(leaks[0]?.slice(0, 120))}`
        : 'no bidi control outside a <bdi> in any paragraph',
      serverSaw: '-',
    });
  });

  it('an account id in the meta lines of a fleet report is in a <bdi>', async () => {
    const fleet = fleetSource(fleetDb([`${RLO}acme`, 'globex']));
    const html = reportHtml(await gatherReport(fleet, { days: 7 }), () => '<svg></svg>', new Date());
    const leaks = inlineOutsideBdi(html).filter((p) => BIDI.test(p));
    expect(leaks).toEqual([]);
    const one = fleetSource(fleetDb([`${RLO}acme`]));
    const single = reportHtml(await gatherReport(one, { days: 7 }), () => '<svg></svg>', new Date());
    expect(inlineOutsideBdi(single).filter((p) => BIDI.test(p))).toEqual([]);
  });
});
