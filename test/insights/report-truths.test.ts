import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkAlerts, parseAlert } from '../../src/insights/report-alerts.js';
import { chartRenderer } from '../../src/insights/report-charts.js';
import { gatherReport } from '../../src/insights/report-data.js';
import { reportHtml } from '../../src/insights/report-html.js';
import type { InsightSource } from '../../src/insights/source.js';
import { inProcessSource } from './in-process-source.js';
import { REPORT_FIXTURE, S } from './report-fixture.js';

// Issue 23 §2: the report states only what is true, and says how sure it is. Over a hand-made
// account (see report-fixture.ts), read in this process.
let source: InsightSource;
let html: string;
let section: (name: string) => string;
/** The words a reader sees: tags become spaces, spaces collapse. */
const text = (h: string) =>
  h
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, ' ')
    .replace(/ ([.,:;)])/g, '$1')
    .replace(/\( /g, '(');

beforeAll(async () => {
  source = await inProcessSource(REPORT_FIXTURE);
  const render = await chartRenderer();
  html = reportHtml(await gatherReport(source, { days: 7 }), render, new Date('2026-03-15T00:00:00Z'));
  section = (name) => html.split('<section>').find((s) => s.includes(`<h2>${name}</h2>`)) ?? '';
}, 60_000);

afterAll(async () => {
  await source?.close();
});

describe('AI visibility is a sample', () => {
  it('the summary gives the pooled share with its number of answers, its 95% Wilson interval, and whether the change is significant', () => {
    // All models pooled: now 14 + 1 + 14 = 29 of 70 + 7 + 28 = 105 (27.6%); before 42 + 4 + 14 = 60 of 105.
    // Wilson 29/105 by hand: centre (0.27619 + 0.018293) / 1.036586 = 0.28409, half 0.08437 → 20.0–36.8%.
    expect(text(section('Samples'))).toContain(
      'The brand is visible in 27.6% of 105 answers (95% interval 20.0–36.8%) across 3 AI models; against the previous 7 days (57.1% of 105): −29.5 points, significant at 95%.',
    );
  });

  it('each model has its answers, interval and significance in the table (14 of 70 → 12.3–30.8%, by hand)', () => {
    const rows = text(section('Samples').split('<h3>AI visibility by model</h3>')[1]?.split('<h3>')[0] ?? '');
    expect(rows).toContain('openai/gpt-5 70 20.0 12.3–30.8% 60.0 70 ▼ −40.0 (worse, significant)');
    // 1 of 7: Wilson (by hand) centre 0.26941, half 0.24373 → 2.6–51.3%; the 42.9-point fall is within noise.
    expect(rows).toContain('perplexity/sonar 7 14.3 2.6–51.3% 57.1 7 −42.9 (not significant)');
    expect(rows).toContain('google/gemini 28 50.0 32.6–67.4% 50.0 28 0.0 (not significant)');
  });

  it("the report's movers list only the significant change", () => {
    expect(text(section('Samples'))).toContain(
      'Models whose visibility changed significantly: openai/gpt-5 −40.0 points.',
    );
  });

  it('--alert visibility_drop fires only on a significant drop; allChanges shows every drop', async () => {
    const alert = parseAlert('visibility_drop>=10');
    const [significant] = await checkAlerts(source, [alert], { project: S, days: 7 });
    expect(significant?.lines).toEqual([
      expect.stringMatching(
        /^openai\/gpt-5: 60\.0% of 70 → 20\.0% of 70 answers \(−40\.0 points, significant at 95%\) \[project 5{8}-/,
      ),
    ]);
    const [all] = await checkAlerts(source, [alert], { project: S, days: 7, allChanges: true });
    expect(all?.lines).toHaveLength(2);
    expect(all?.lines[1]).toMatch(
      /^perplexity\/sonar: 57\.1% of 7 → 14\.3% of 7 answers \(−42\.9 points, not significant at 95%\)/,
    );
  });
});

describe('figures that do not contradict each other', () => {
  it('referring domains: the summary names its source (the domain list) and the chart its own (the backlink history)', () => {
    const summary = text(section('Fixture').split('</div>')[0] ?? '');
    expect(summary).toContain(
      'Referring domains in the domain list: 1 gained and 0 lost in the period (losses are tracked from the second sync on: a domain is lost when a later sync no longer finds it).',
    );
    expect(summary).toContain(
      "The backlink history (the chart, the API's daily counts) went from 38 referring domains on 2026-03-07 to 40 on 2026-03-08 (+2).",
    );
    expect(section('Fixture')).toContain('Referring domains per day (backlink history)');
  });

  it('a project with no completed audit says so, not "0 new issues (0 critical), 0 fixed, 0 still open"', () => {
    expect(text(section('Samples'))).toContain('No completed audit yet');
    expect(section('Samples')).not.toMatch(/0 new issues \(0 critical\), 0 fixed, 0 still open/);
    expect(text(section('Fixture'))).toContain(
      'Latest audit against the one before: 1 new issue (1 critical), 1 fixed, 1 still open.',
    );
  });

  it('one keyword tracked in two locations shows each location, in the table and the chart legend', () => {
    const movers = text(section('Samples').split('<h3>Biggest movers (desktop)</h3>')[1]?.split('<h3>')[0] ?? '');
    expect(movers).toContain('affordable single origin coffee Boston, MA 32 45 ▼ +13 (worse: down 13 places)');
    expect(movers).toContain('affordable single origin coffee Denver, CO 65 52 ▲ −13 (better: up 13 places)');
    const legend = text(section('Samples').split('class="legend"')[1] ?? '');
    expect(legend).toContain('affordable single origin coffee (Boston, MA)');
    expect(legend).toContain('affordable single origin coffee (Denver, CO)');
  });

  it('--alert rank_drop names the location', async () => {
    const [drop] = await checkAlerts(source, [parseAlert('rank_drop>=10')], { project: S, days: 7 });
    expect(drop?.lines).toEqual([
      expect.stringMatching(/^affordable single origin coffee \(Boston, MA\) \(desktop\): 32 → 45, \+13 \[project /),
    ]);
  });

  it("an improvement reads as one: arrow, colour and words, keeping the view's sign (12 → 4 is −8)", () => {
    expect(section('Fixture')).toContain(
      '<span class="better"><span aria-hidden="true">▲ </span>−8<span class="sr"> (better: up 8 places)</span></span>',
    );
    expect(html).toMatch(/\.better \{ color: #[0-9a-f]{6}; \}/);
  });
});

describe('charts every line of which can be told in a static file', () => {
  it('no paged legend: no ◁ ▷ arrows, every series named in full in an HTML legend', () => {
    expect(html).not.toMatch(/[◁▷]|\d\/\d<\/text>/);
    const fixture = section('Fixture');
    for (const name of ['boots (Boston)', 'referring domains (backlink history)'])
      expect(text(fixture)).toContain(name);
    const samples = text(section('Samples'));
    for (const model of ['google/gemini', 'openai/gpt-5', 'perplexity/sonar'])
      expect(samples).toMatch(new RegExp(`class="legend"|${model.replace('/', '\\/')}`));
    // Positions and visibility (the project has no backlink history to chart).
    expect(section('Samples').match(/<ul class="legend"/g)).toHaveLength(2);
  });

  it('AI visibility is charted as a trailing 7-day share on a 0–100 axis, not daily zig-zags', () => {
    expect(section('Samples')).toContain('Brand visibility by AI model, % of answers over the trailing 7 days');
  });
});

describe('one format per column', () => {
  it('percentages and average positions with one decimal ("50.0" beside "100.0", never "50" beside "59.2")', () => {
    const rows = text(section('Fixture').split('<h3>AI visibility by model</h3>')[1]?.split('<h3>')[0] ?? '');
    // In "Fixture": gpt-5 visible in 1 of 2 answers now, 0 of 1 before; cited in 1 of 2.
    expect(rows).toContain('openai/gpt-5 2 50.0 9.5–90.5% 0.0 1 +50.0 (not significant) 2.0 50.0');
    expect(rows).toContain('perplexity/sonar 1 100.0 20.7–100.0% – – – 4.0 0.0');
  });
});
