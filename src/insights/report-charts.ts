import { loadPeer } from './errors.js';

/** The part of ECharts' API the report uses (server-side SVG rendering). */
interface ECharts {
  init(
    dom: null,
    theme: null,
    options: { renderer: 'svg'; ssr: true; width: number; height: number },
  ): {
    setOption(option: unknown): void;
    renderToSVGString(): string;
    dispose(): void;
  };
}

/**
 * Line colours and dashes, in series order: eight colours that stay apart for the common forms of
 * colour blindness (Okabe and Ito's palette, with its yellow darkened to read on white), the second
 * eight repeat them dashed. The HTML legend beside each chart draws the same swatch, so every line
 * is named in the static file: ECharts' own legend pages (its ◁ 1/2 ▷ arrows need a script the file
 * does not have) and cuts long labels.
 * @internal
 */
export function seriesStyle(index: number): { color: string; dashed: boolean } {
  return { color: PALETTE[index % PALETTE.length] as string, dashed: Math.floor(index / PALETTE.length) % 2 === 1 };
}

const PALETTE = ['#0072b2', '#d55e00', '#009e73', '#cc79a7', '#56b4e9', '#b8860b', '#000000', '#e69f00'];

/** A line chart: named series of [x, y] points, drawn by ECharts as an SVG string. @internal */
export interface LineChart {
  title: string;
  /** The y axis' range, when fixed (a percentage runs 0–100). */
  yRange?: readonly [number, number];
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
        // No legend in the SVG: the report writes one in HTML (see seriesStyle).
        legend: { show: false },
        grid: { left: 48, right: 24, top: 40, bottom: 36 },
        xAxis: { type: 'category', boundaryGap: false, data: days },
        // Positions, counts and whole percentages: no axis label like "39.5 referring domains".
        yAxis: {
          type: 'value',
          minInterval: 1,
          inverse: chart.inverse ?? false,
          min: chart.yRange?.[0] ?? (chart.inverse ? 1 : undefined),
          max: chart.yRange?.[1],
          scale: !chart.inverse && !chart.yRange,
        },
        series: chart.series.map((s, i) => {
          const style = seriesStyle(i);
          const data = alignTo(days, s.points);
          // A value with no neighbour draws no line: such a series gets dots, or it would be in the legend only.
          const showSymbol = data.some(
            (v, d) => v !== null && (data[d - 1] ?? null) === null && (data[d + 1] ?? null) === null,
          );
          return {
            type: 'line',
            name: s.name,
            showSymbol,
            symbolSize: 6,
            connectNulls: false,
            color: style.color,
            lineStyle: { width: 2, type: style.dashed ? 'dashed' : 'solid' },
            data,
          };
        }),
      });
      return instance.renderToSVGString();
    } finally {
      instance.dispose();
    }
  };
}

/** A series' values on the chart's shared x axis (a missing day is a gap). */
function alignTo(
  days: readonly string[],
  points: ReadonlyArray<readonly [string, number | null]>,
): Array<number | null> {
  const byDay = new Map(points);
  return days.map((d) => byDay.get(d) ?? null);
}
