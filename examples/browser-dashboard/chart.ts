// Plain SVG charts: no chart library, so the bundle is the SDK, the simulator and ~100 lines.
const SVG = 'http://www.w3.org/2000/svg';

/** One line of a line chart: a label, a colour and one value per x (null = no data that day). */
export interface Series {
  label: string;
  color: string;
  values: Array<number | null>;
}

function el<K extends keyof SVGElementTagNameMap>(
  name: K,
  attrs: Record<string, string | number>,
  text?: string,
): SVGElementTagNameMap[K] {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}

/**
 * A line chart of search positions: position 1 at the top (a lower number is better), one
 * polyline per series, a legend, and the first/last dates under the x axis.
 * @example `host.append(positionChart(['2026-09-01', …], [{ label: 'Desktop', color: '#2563eb', values: [4, 3, …] }]))`
 */
export function positionChart(dates: string[], series: Series[], width = 720, height = 300): SVGSVGElement {
  const pad = { left: 40, right: 16, top: 28, bottom: 28 };
  const all = series.flatMap((s) => s.values.filter((v): v is number => v !== null));
  const worst = Math.max(10, ...all);
  const x = (i: number): number => pad.left + (i * (width - pad.left - pad.right)) / Math.max(1, dates.length - 1);
  const y = (position: number): number =>
    pad.top + ((position - 1) * (height - pad.top - pad.bottom)) / Math.max(1, worst - 1);

  const svg = el('svg', { viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': 'Position history' });
  for (const tick of [1, Math.round(worst / 2), worst]) {
    svg.append(el('line', { x1: pad.left, x2: width - pad.right, y1: y(tick), y2: y(tick), stroke: '#e5e7eb' }));
    svg.append(
      el(
        'text',
        { x: pad.left - 6, y: y(tick) + 4, 'text-anchor': 'end', 'font-size': 11, fill: '#6b7280' },
        `#${tick}`,
      ),
    );
  }
  svg.append(el('text', { x: pad.left, y: height - 8, 'font-size': 11, fill: '#6b7280' }, dates[0] ?? ''));
  svg.append(
    el(
      'text',
      { x: width - pad.right, y: height - 8, 'text-anchor': 'end', 'font-size': 11, fill: '#6b7280' },
      dates.at(-1) ?? '',
    ),
  );

  series.forEach((s, index) => {
    const points = s.values.flatMap((v, i) => (v === null ? [] : [`${x(i).toFixed(1)},${y(v).toFixed(1)}`]));
    svg.append(
      el('polyline', {
        points: points.join(' '),
        fill: 'none',
        stroke: s.color,
        'stroke-width': 2,
        'data-series': s.label,
      }),
    );
    const lx = pad.left + index * 130;
    svg.append(el('rect', { x: lx, y: 8, width: 10, height: 10, fill: s.color }));
    svg.append(el('text', { x: lx + 14, y: 17, 'font-size': 12, fill: '#111827' }, s.label));
  });
  return svg;
}

/**
 * A horizontal bar chart of percentages (0–100), one bar per label, value printed at the bar's end.
 * @example `host.append(percentBars([{ label: 'openai/gpt-5', value: 62.5 }]))`
 */
export function percentBars(rows: Array<{ label: string; value: number }>, width = 720): SVGSVGElement {
  const rowHeight = 30;
  const labelWidth = 220;
  const height = rows.length * rowHeight + 8;
  const scale = (width - labelWidth - 60) / 100;
  const svg = el('svg', { viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': 'AI visibility per model' });
  rows.forEach((row, i) => {
    const top = 4 + i * rowHeight;
    svg.append(
      el('text', { x: labelWidth - 8, y: top + 17, 'text-anchor': 'end', 'font-size': 12, fill: '#111827' }, row.label),
    );
    svg.append(
      el('rect', {
        x: labelWidth,
        y: top + 4,
        width: Math.max(1, row.value * scale),
        height: rowHeight - 10,
        rx: 3,
        fill: '#10b981',
        'data-model': row.label,
      }),
    );
    svg.append(
      el(
        'text',
        { x: labelWidth + row.value * scale + 6, y: top + 17, 'font-size': 12, fill: '#374151' },
        `${row.value.toFixed(0)}%`,
      ),
    );
  });
  return svg;
}
