import { type LineChart, seriesStyle } from './report-charts.js';
import type { ProjectReport } from './report-data.js';
import {
  bidiHtml,
  formatAverage,
  formatCount,
  formatInterval,
  formatPct,
  formatPosition,
  formatSigned,
  isolated,
} from './report-format.js';
import type { ResultRow } from './source.js';
import type { ModelVisibility } from './visibility-samples.js';

/** HTML-escapes text. */
function esc(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A cell already written as HTML (from escaped parts); any other cell value is escaped text. */
interface Html {
  html: string;
}
type Cell = Html | string;

/** A table of rows: [header, cell of a row][]; "none" when empty. */
function table<T>(rows: readonly T[], columns: ReadonlyArray<[string, (r: T) => Cell]>, empty: string): string {
  if (!rows.length) return `<p class="none">${esc(empty)}</p>`;
  const head = columns.map(([h]) => `<th>${esc(h)}</th>`).join('');
  const cell = (c: Cell) => (typeof c === 'string' ? esc(c) : c.html);
  const body = rows.map((r) => `<tr>${columns.map(([, fn]) => `<td>${cell(fn(r))}</td>`).join('')}</tr>`).join('\n');
  return `<table><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table>`;
}

/**
 * A change with its direction shown three ways: the sign as the view documents it, an arrow and a
 * colour (green better, red worse), and words for screen readers. Positions: negative is better
 * (12 → 4 is −8, up 8 places). Visibility: positive is better; a change that is not significant
 * is grey and says so.
 */
function rankChangeCell(change: unknown): Cell {
  if (change === null || change === undefined) return '–';
  const n = Number(change);
  if (n === 0) return { html: '<span class="same">0<span class="sr"> (no change)</span></span>' };
  const better = n < 0;
  const words = `${better ? 'better: up' : 'worse: down'} ${Math.abs(n)} place${Math.abs(n) === 1 ? '' : 's'}`;
  return {
    html: `<span class="${better ? 'better' : 'worse'}"><span aria-hidden="true">${better ? '▲' : '▼'} </span>${esc(formatSigned(n))}<span class="sr"> (${words})</span></span>`,
  };
}

function visibilityChangeCell(m: ModelVisibility): Cell {
  if (!m.change) return '–';
  const points = formatSigned(100 * m.change.change, 1);
  if (!m.change.significant)
    return { html: `<span class="same">${esc(points)}<span class="sr"> (not significant)</span></span>` };
  const better = m.change.change > 0;
  return {
    html: `<span class="${better ? 'better' : 'worse'}"><span aria-hidden="true">${better ? '▲' : '▼'} </span>${esc(points)}<span class="sr"> (${better ? 'better' : 'worse'}, significant)</span></span>`,
  };
}

/** "1 keyword", "2 keywords": a count and its noun. */
const counted = (n: number, noun: string) => `${formatCount(n)} ${noun}${n === 1 ? '' : 's'}`;

/** "56.6% of 1,204 answers (95% interval 53.8–59.4%)". */
function shareWords(m: ModelVisibility): string {
  return `${formatPct(100 * m.interval.share)} of ${formatCount(m.current.n)} answer${m.current.n === 1 ? '' : 's'} (95% interval ${formatInterval(m.interval)})`;
}

/** "+4.5 points, significant at 95%" or "… not significant at 95% (within sampling noise)". */
function changeWords(m: ModelVisibility): string {
  if (!m.change) return 'no answers in the previous period to compare with';
  return `${formatSigned(100 * m.change.change, 1)} points, ${m.change.significant ? 'significant at 95%' : 'not significant at 95% (within sampling noise)'}`;
}

/** The summary in words at the top of a project's section. @internal */
export function summaryWords(p: ProjectReport): string[] {
  const lines: string[] = [];
  if (p.endDate) {
    lines.push(
      `Over the ${p.days} days to ${p.endDate}, ${counted(p.improved, 'keyword')} improved and ${formatCount(p.declined)} declined on desktop; ${formatCount(p.topTen.entered.length)} entered the top 10 and ${formatCount(p.topTen.left.length)} left it.`,
    );
  } else lines.push('No keyword rankings synced yet.');
  if (p.overall) {
    const o = p.overall;
    const previous =
      o.previous && o.previousInterval
        ? ` (${formatPct(100 * o.previousInterval.share)} of ${formatCount(o.previous.n)})`
        : '';
    lines.push(
      `The brand is visible in ${shareWords(o)} across ${p.models.length} AI model${p.models.length === 1 ? '' : 's'}; against the previous ${p.days} days${previous}: ${changeWords(o)}.`,
    );
    const moved = p.visibilityMovers.map(
      (m) =>
        `${isolated(m.model)} ${formatSigned(100 * (m.change?.change ?? 0), 1)} points${m.change?.significant ? '' : ' (not significant)'}`,
    );
    const withChange = p.models.filter((m) => m.change).length;
    if (moved.length)
      lines.push(
        `${p.visibilityMovers.every((m) => m.change?.significant) ? 'Models whose visibility changed significantly' : 'Changes by model (significant or not)'}: ${moved.join('; ')}.`,
      );
    else if (withChange)
      lines.push(`No model's visibility changed significantly at 95% against the previous ${p.days} days.`);
  }
  const lostNote =
    p.domains.lost.length === 0
      ? ' (losses are tracked from the second sync on: a domain is lost when a later sync no longer finds it)'
      : '';
  lines.push(
    `Referring domains in the domain list: ${formatCount(p.domains.gained.length)} gained and ${formatCount(p.domains.lost.length)} lost in the period${lostNote}.`,
  );
  const known = p.trend.filter((t): t is [string, number] => t[1] !== null);
  const first = known[0];
  const last = known.at(-1);
  if (first && last) {
    lines.push(
      `The backlink history (the chart, the API's daily counts) went from ${formatCount(first[1])} referring domains on ${first[0]} to ${formatCount(last[1])} on ${last[0]} (${formatSigned(last[1] - first[1])}).`,
    );
  }
  if (!p.audits.completed) lines.push('No completed audit yet: audit issues are compared once an audit has completed.');
  else if (!p.audits.hasPrevious) {
    lines.push(
      `First completed audit: ${counted(p.audits.new, 'open issue')} (${formatCount(p.audits.newCritical.length)} critical); fixed issues are counted from the second completed audit on.`,
    );
  } else {
    lines.push(
      `Latest audit against the one before: ${counted(p.audits.new, 'new issue')} (${formatCount(p.audits.newCritical.length)} critical), ${formatCount(p.audits.fixed)} fixed, ${formatCount(p.audits.open)} still open.`,
    );
  }
  return lines;
}

/** The charts of one project's section. @internal */
export function projectCharts(p: ProjectReport): LineChart[] {
  return [
    {
      title: 'Desktop position of the biggest movers (1 = top)',
      inverse: true,
      series: [...p.positions].map(([name, points]) => ({ name, points })),
    },
    {
      title: 'Brand visibility by AI model, % of answers over the trailing 7 days',
      yRange: [0, 100],
      series: [...p.visibility].map(([name, points]) => ({ name, points })),
    },
    {
      title: 'Referring domains per day (backlink history)',
      series: [{ name: 'referring domains (backlink history)', points: p.trend }],
    },
  ];
}

/** The legend of a chart, in HTML: every line's swatch and full name, wrapping rather than cut. */
function legend(chart: LineChart): string {
  const items = chart.series.map((s, i) => {
    const { color, dashed } = seriesStyle(i);
    const swatch = `<svg class="swatch" width="24" height="10" aria-hidden="true"><line x1="1" y1="5" x2="23" y2="5" stroke="${color}" stroke-width="3"${dashed ? ' stroke-dasharray="5 3"' : ''}/></svg>`;
    return `<li>${swatch}${esc(s.name)}</li>`;
  });
  return `<ul class="legend" aria-label="${esc(`Lines of: ${chart.title}`)}">${items.join('')}</ul>`;
}

/** A keyword's cells: its text and where it is tracked. */
const keywordColumns: Array<[string, (r: ResultRow) => Cell]> = [
  ['Keyword', (r) => String(r['keyword'] ?? '')],
  ['Location', (r) => String(r['location'] ?? '–')],
];

/**
 * One project's section; its heading at `level` (2 when the report is of one account, 3 under its
 * account's heading when it spans several), its sub-headings one below.
 */
function projectSection(p: ProjectReport, render: (chart: LineChart) => string, level: 2 | 3): string {
  const [h, sub] = [`h${level}`, `h${level + 1}`];
  const charts = projectCharts(p)
    .filter((c) => c.series.some((s) => s.points.some((pt) => pt[1] !== null)))
    .map((c) => `<figure>${render(c)}\n${legend(c)}</figure>`)
    .join('\n');
  return `<section>
<${h}>${esc(p.name)}</${h}>
<div class="summary">${summaryWords(p)
    .map((l) => `<p>${bidiHtml(esc(l))}</p>`)
    .join('')}</div>
${charts}
<${sub}>Biggest movers (desktop)</${sub}>
${table(p.movers, [...keywordColumns, ['Start', (r) => formatPosition(r['start_position'])], ['End', (r) => formatPosition(r['end_position'])], ['Change', (r) => rankChangeCell(r['change'])], ['Movement', (r) => String(r['movement'] ?? '')]], 'No keyword moved.')}
<${sub}>Top-10 entries</${sub}>
${table(p.topTen.entered, [...keywordColumns, ['Start', (r) => formatPosition(r['start_position'])], ['End', (r) => formatPosition(r['end_position'])]], 'None.')}
<${sub}>Top-10 exits</${sub}>
${table(p.topTen.left, [...keywordColumns, ['Start', (r) => formatPosition(r['start_position'])], ['End', (r) => formatPosition(r['end_position'])]], 'None.')}
<${sub}>AI visibility by model</${sub}>
${table(
  p.models,
  [
    ['Model', (m) => m.model],
    ['Answers', (m) => formatCount(m.current.n)],
    ['Visible %', (m) => formatPct(100 * m.interval.share, false)],
    ['95% interval', (m) => formatInterval(m.interval)],
    ['Previous %', (m) => (m.previousInterval ? formatPct(100 * m.previousInterval.share, false) : '–')],
    ['Previous answers', (m) => (m.previous ? formatCount(m.previous.n) : '–')],
    ['Change, points', visibilityChangeCell],
    ['Avg position', (m) => formatAverage(p.modelDetails.get(m.model)?.['average_position'])],
    ['Cited %', (m) => formatPct(p.modelDetails.get(m.model)?.['citation_share_pct'], false)],
  ],
  'No AI answers checked in the period.',
)}
<${sub}>Referring domains lost (domain list)</${sub}>
${table(
  p.domains.lost,
  [
    ['Domain', (r) => String(r['domain'] ?? '')],
    ['Lost on', (r) => String(r['changed_on'] ?? '–')],
    ['Domain rank', (r) => formatCount(r['domain_rank'])],
  ],
  p.domains.gained.length || p.domains.lost.length
    ? 'None lost in the period.'
    : 'None lost in the period (losses are tracked from the second sync on).',
)}
<${sub}>Referring domains gained (domain list)</${sub}>
${table(
  p.domains.gained,
  [
    ['Domain', (r) => String(r['domain'] ?? '')],
    ['First seen', (r) => String(r['changed_on'] ?? '–')],
    ['Domain rank', (r) => formatCount(r['domain_rank'])],
  ],
  'None gained in the period.',
)}
<${sub}>New critical audit issues</${sub}>
${table(
  p.audits.newCritical,
  [
    ['Issue', (r) => String(r['title'] ?? '')],
    ['Type', (r) => String(r['issue_type'] ?? '')],
    ['Pages', (r) => formatCount(r['affected_count'])],
  ],
  p.audits.completed ? 'No new critical issue in the latest audit.' : 'No completed audit yet.',
)}
</section>`;
}

/** Accounts the report's summary names at most. */
const NAMED_ACCOUNTS = 10;

/** The projects by account, in the order they come (gatherReport lists them account by account). */
function byAccount(projects: readonly ProjectReport[]): Map<string, ProjectReport[]> {
  const groups = new Map<string, ProjectReport[]>();
  for (const p of projects) {
    if (p.account === undefined) continue;
    const mine = groups.get(p.account);
    if (mine) mine.push(p);
    else groups.set(p.account, [p]);
  }
  return groups;
}

/**
 * Whose account the report is, and its body. In a fleet warehouse (projects carry their account)
 * the heading names the account; a report over several accounts has a section per account, so two
 * projects of the same name in two accounts are never read as one. A store of one account has no
 * account id to name (its tables have no account_id).
 */
function reportBody(
  projects: readonly ProjectReport[],
  render: (chart: LineChart) => string,
): { whose: string; title: string; sections: string } {
  const accounts = byAccount(projects);
  const [only] = accounts.keys();
  if (accounts.size <= 1) {
    const sections = projects.map((p) => projectSection(p, render, 2)).join('\n');
    return only === undefined
      ? { whose: '', title: '', sections }
      : { whose: `Account ${isolated(only)}: `, title: ` (account ${isolated(only)})`, sections };
  }
  const names = [...accounts.keys()];
  const sections = [...accounts].map(
    ([account, mine]) => `<section class="account">
<h2 class="account">Account ${esc(account)}</h2>
<p class="meta">${bidiHtml(esc(`${formatCount(mine.length)} project(s) of account ${isolated(account)}.`))}</p>
${mine.map((p) => projectSection(p, render, 3)).join('\n')}
</section>`,
  );
  // An agency's warehouse may hold hundreds: the first few are named here, every one heads its section.
  const named =
    names.length > NAMED_ACCOUNTS
      ? `${names.slice(0, NAMED_ACCOUNTS).map(isolated).join(', ')} and ${formatCount(names.length - NAMED_ACCOUNTS)} more`
      : names.map(isolated).join(', ');
  return {
    whose: `${formatCount(names.length)} accounts (${named}), each in its own section: `,
    title: ` (${formatCount(names.length)} accounts)`,
    sections: sections.join('\n'),
  };
}

/**
 * The whole report: one self-contained page (styles inline, charts as inline SVG, no script and
 * nothing fetched), so it opens offline and can be mailed as one file. It names the account it is
 * of (in a fleet warehouse), or groups the projects by account when it spans several.
 * @internal
 */
export function reportHtml(
  projects: readonly ProjectReport[],
  render: (chart: LineChart) => string,
  generatedAt: Date,
): string {
  const { whose, title, sections } = reportBody(projects, render);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>SEO and AI visibility: what changed${esc(title.replace(/[\u2068\u2069]/g, ''))}</title>
<style>
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1d2433; margin: 0 auto; max-width: 960px; padding: 24px; }
h1 { font-size: 22px; margin: 0 0 4px; } h2 { font-size: 19px; border-bottom: 2px solid #dfe3ea; padding-bottom: 4px; margin-top: 40px; } h3 { font-size: 15px; margin: 22px 0 6px; } h4 { font-size: 14px; margin: 18px 0 6px; }
h2.account { font-size: 21px; border-bottom: 3px solid #1d2433; margin-top: 48px; } section.account > section > h3 { font-size: 17px; border-bottom: 1px solid #dfe3ea; margin-top: 32px; }
.meta { color: #667085; margin: 0 0 8px; } .summary { background: #f4f6fa; border-radius: 6px; padding: 8px 14px; } .summary p { margin: 6px 0; }
figure { margin: 16px 0; } figure svg { max-width: 100%; height: auto; }
.legend { list-style: none; margin: 4px 0 0; padding: 0 0 0 8px; display: flex; flex-wrap: wrap; gap: 4px 20px; font-size: 13px; }
.legend li { display: flex; align-items: center; gap: 6px; overflow-wrap: anywhere; } .legend .swatch { flex: none; }
table { border-collapse: collapse; width: 100%; } th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid #e6e9ef; } th { background: #f4f6fa; font-weight: 600; }
td { font-variant-numeric: tabular-nums; }
.better { color: #05703a; } .worse { color: #b42318; } .same { color: #667085; }
.sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
.none { color: #667085; font-style: italic; }
</style>
</head>
<body>
<h1>SEO and AI visibility: what changed${bidiHtml(esc(title))}</h1>
<p class="meta">${bidiHtml(esc(whose))}${formatCount(projects.length)} project(s), generated ${esc(generatedAt.toISOString().slice(0, 16).replace('T', ' '))} UTC from the synced store by seo-visibility report. Visibility in AI answers is a sample: each figure comes with its number of answers and a 95% interval, and a change is called significant by a two-proportion z-test at 95%.</p>
${sections || '<p class="none">The store holds no projects yet: run seo-visibility sync first.</p>'}
</body>
</html>
`;
}
