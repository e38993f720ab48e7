import type { LineChart } from './report-charts.js';
import type { ProjectReport } from './report-data.js';
import type { ResultRow } from './source.js';

/** HTML-escapes text. */
function esc(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const signed = (n: unknown) => (n === null || n === undefined ? '–' : Number(n) > 0 ? `+${n}` : String(n));

/** A table of rows: [header, cell of a row][]; "none" when empty. */
function table(rows: readonly ResultRow[], columns: ReadonlyArray<[string, (r: ResultRow) => unknown]>, empty: string): string {
  if (!rows.length) return `<p class="none">${esc(empty)}</p>`;
  const head = columns.map(([h]) => `<th>${esc(h)}</th>`).join('');
  const body = rows.map((r) => `<tr>${columns.map(([, cell]) => `<td>${esc(cell(r))}</td>`).join('')}</tr>`).join('\n');
  return `<table><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table>`;
}

/** The summary in words at the top of a project's section. @internal */
export function summaryWords(p: ProjectReport): string[] {
  const lines: string[] = [];
  if (p.endDate) {
    lines.push(
      `Over the ${p.days} days to ${p.endDate}, ${p.improved} keywords improved and ${p.declined} declined on desktop; ${p.topTen.entered.length} entered the top 10 and ${p.topTen.left.length} left it.`,
    );
  } else lines.push('No keyword rankings synced yet.');
  const visible = p.models.filter((m) => m['visibility_pct'] !== null);
  if (visible.length) {
    const avg = (key: string) => visible.reduce((s, m) => s + Number(m[key] ?? 0), 0) / visible.length;
    const change = visible.every((m) => m['previous_visibility_pct'] !== null) ? avg('visibility_pct') - avg('previous_visibility_pct') : undefined;
    const best = visible[0] as ResultRow;
    lines.push(
      `The brand is visible in ${avg('visibility_pct').toFixed(1)}% of AI answers on average${change === undefined ? '' : ` (${change >= 0 ? '+' : ''}${change.toFixed(1)} points against the previous ${p.days} days)`}; best model: ${best['model']} at ${best['visibility_pct']}%.`,
    );
  }
  lines.push(`Referring domains: ${p.domains.gained.length} gained, ${p.domains.lost.length} lost.`);
  lines.push(`Latest audit against the one before: ${p.audits.new} new issues (${p.audits.newCritical.length} critical), ${p.audits.fixed} fixed, ${p.audits.open} still open.`);
  return lines;
}

/** The charts of one project's section. @internal */
export function projectCharts(p: ProjectReport): LineChart[] {
  return [
    { title: 'Desktop position of the biggest movers (1 = top)', inverse: true, series: [...p.positions].map(([name, points]) => ({ name, points })) },
    { title: 'Brand visibility by AI model (% of answers)', series: [...p.visibility].map(([name, points]) => ({ name, points })) },
    { title: 'Referring domains', series: [{ name: 'referring domains', points: p.trend }] },
  ];
}

/**
 * The whole report: one self-contained page (styles inline, charts as inline SVG, no script and
 * nothing fetched), so it opens offline and can be mailed as one file.
 * @internal
 */
export function reportHtml(projects: readonly ProjectReport[], render: (chart: LineChart) => string, generatedAt: Date): string {
  const sections = projects.map((p) => {
    const charts = projectCharts(p)
      .filter((c) => c.series.some((s) => s.points.length > 0))
      .map((c) => `<figure>${render(c)}</figure>`)
      .join('\n');
    return `<section>
<h2>${esc(p.name)}</h2>
<div class="summary">${summaryWords(p).map((l) => `<p>${esc(l)}</p>`).join('')}</div>
${charts}
<h3>Biggest movers (desktop)</h3>
${table(p.movers, [['Keyword', (r) => r['keyword']], ['Start', (r) => r['start_position'] ?? '–'], ['End', (r) => r['end_position'] ?? '–'], ['Change', (r) => signed(r['change'])], ['Movement', (r) => r['movement'] ?? '']], 'No keyword moved.')}
<h3>Top-10 entries</h3>
${table(p.topTen.entered, [['Keyword', (r) => r['keyword']], ['Start', (r) => r['start_position'] ?? '–'], ['End', (r) => r['end_position']]], 'None.')}
<h3>Top-10 exits</h3>
${table(p.topTen.left, [['Keyword', (r) => r['keyword']], ['Start', (r) => r['start_position']], ['End', (r) => r['end_position'] ?? '–']], 'None.')}
<h3>AI visibility by model</h3>
${table(p.models, [['Model', (r) => r['model']], ['Visible %', (r) => r['visibility_pct']], ['Previous %', (r) => r['previous_visibility_pct'] ?? '–'], ['Change', (r) => signed(r['visibility_change'])], ['Avg position', (r) => r['average_position'] ?? '–'], ['Cited %', (r) => r['citation_share_pct']]], 'No AI answers checked in the period.')}
<h3>Referring domains lost</h3>
${table(p.domains.lost, [['Domain', (r) => r['domain']], ['Lost on', (r) => r['changed_on']], ['Domain rank', (r) => r['domain_rank'] ?? '–']], 'None lost in the period.')}
<h3>Referring domains gained</h3>
${table(p.domains.gained, [['Domain', (r) => r['domain']], ['First seen', (r) => r['changed_on']], ['Domain rank', (r) => r['domain_rank'] ?? '–']], 'None gained in the period.')}
<h3>New critical audit issues</h3>
${table(p.audits.newCritical, [['Issue', (r) => r['title']], ['Type', (r) => r['issue_type']], ['Pages', (r) => r['affected_count'] ?? '–']], 'No new critical issue in the latest audit.')}
</section>`;
  });
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>SEO and AI visibility: what changed</title>
<style>
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1d2433; margin: 0 auto; max-width: 960px; padding: 24px; }
h1 { font-size: 22px; margin: 0 0 4px; } h2 { font-size: 19px; border-bottom: 2px solid #dfe3ea; padding-bottom: 4px; margin-top: 40px; } h3 { font-size: 15px; margin: 22px 0 6px; }
.meta { color: #667085; margin: 0 0 8px; } .summary { background: #f4f6fa; border-radius: 6px; padding: 8px 14px; } .summary p { margin: 6px 0; }
figure { margin: 16px 0; } figure svg { max-width: 100%; height: auto; }
table { border-collapse: collapse; width: 100%; } th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid #e6e9ef; } th { background: #f4f6fa; font-weight: 600; }
.none { color: #667085; font-style: italic; }
</style>
</head>
<body>
<h1>SEO and AI visibility: what changed</h1>
<p class="meta">${projects.length} project(s), generated ${esc(generatedAt.toISOString().slice(0, 16).replace('T', ' '))} UTC from the synced store by seo-visibility report.</p>
${sections.join('\n') || '<p class="none">The store holds no projects yet: run seo-visibility sync first.</p>'}
</body>
</html>
`;
}
