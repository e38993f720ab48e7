import { loadPeer } from './errors.js';

/** The part of ECharts' API the report uses (server-side SVG rendering). */
interface ECharts {
  init(dom: null, theme: null, options: { renderer: 'svg'; ssr: true; width: number; height: number }): {
    setOption(option: unknown): void;
    renderToSVGString(): string;
    dispose(): void;
  };
}

/** A line chart: named series of [x, y] points, drawn by ECharts as an SVG string. @internal */
export interface LineChart {
  title: string;
  series: ReadonlyArray<{ name: string; points: ReadonlyArray<readonly [string, number | null]> }>;
  /** Position charts run top-down: 1 is the best. */
  inverse?: boolean;
  width?: number;
  height?: number;
}

/**
 * Renders charts with ECharts' server-side SVG renderer (no DOM, no browser): an optional peer,
 * loaded on first use, with an `npm install echarts` message when it is missing.
 * @internal
 */
export async function chartRenderer(): Promise<(chart: LineChart) => string> {
  const mod = await loadPeer<ECharts & { default?: ECharts }>('echarts', 'seo-visibility report (its charts)');
  const echarts = mod.default ?? mod;
  return (chart) => {
    const width = chart.width ?? 900;
    const height = chart.height ?? 320;
    const days = [...new Set(chart.series.flatMap((s) => s.points.map((p) => p[0])))].sort();
    const instance = echarts.init(null, null, { renderer: 'svg', ssr: true, width, height });
    try {
      instance.setOption({
        animation: false,
        title: { text: chart.title, left: 8, top: 4, textStyle: { fontSize: 14 } },
        // SSR measures text roughly: a wide gap keeps legend labels off the next symbol.
        legend: { type: 'scroll', top: 28, left: 8, right: 8, itemGap: 28 },
        grid: { left: 48, right: 24, top: 70, bottom: 36 },
        xAxis: { type: 'category', boundaryGap: false, data: days },
        yAxis: { type: 'value', inverse: chart.inverse ?? false, min: chart.inverse ? 1 : undefined, scale: !chart.inverse },
        series: chart.series.map((s) => ({ type: 'line', name: s.name, showSymbol: false, connectNulls: false, data: alignTo(days, s.points) })),
      });
      return instance.renderToSVGString();
    } finally {
      instance.dispose();
    }
  };
}

/** A series' values on the chart's shared x axis (a missing day is a gap). */
function alignTo(days: readonly string[], points: ReadonlyArray<readonly [string, number | null]>): Array<number | null> {
  const byDay = new Map(points);
  return days.map((d) => byDay.get(d) ?? null);
}
