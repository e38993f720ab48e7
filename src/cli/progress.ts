import cliProgress from 'cli-progress';
import type { DatasetName, SyncPlan, SyncProgress, SyncResult, SyncWindow } from '../sync/index.js';

/** What the sync command shows while it runs. @internal */
export interface Reporter {
  update(progress: SyncProgress): void;
  stop(result: SyncResult | undefined): void;
}

/** One dataset's counters as the display sees them. */
interface Line {
  planned: number;
  requests: number;
  rows: number;
  done: boolean;
}

/**
 * The least time `remaining` requests can take: the slowest of the rate windows' sustained pace and
 * the pace observed so far (latency, concurrency).
 * @internal
 */
export function etaMs(remaining: number, windows: readonly SyncWindow[], observedPerMs: number): number {
  if (remaining <= 0) return 0;
  let budgetMs = 0;
  for (const w of windows)
    if (remaining > w.limit) budgetMs = Math.max(budgetMs, Math.ceil(remaining / w.limit - 1) * w.intervalMs);
  return Math.max(budgetMs, observedPerMs > 0 ? remaining / observedPerMs : 0);
}

/** `1m05s`, `2h10m`, `3d4h`. @internal */
export function shortDuration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  if (s < 86_400) return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
  return `${Math.floor(s / 86_400)}d${Math.floor((s % 86_400) / 3600)}h`;
}

abstract class BaseReporter implements Reporter {
  protected readonly lines = new Map<DatasetName, Line>();
  protected readonly started = Date.now();

  constructor(
    plan: SyncPlan,
    protected readonly windows: readonly SyncWindow[],
  ) {
    for (const [name, d] of Object.entries(plan.byDataset))
      this.lines.set(name as DatasetName, { planned: d?.requests ?? 0, requests: 0, rows: 0, done: false });
  }

  update(progress: SyncProgress): void {
    for (const [name, d] of Object.entries(progress.datasets)) {
      const line = this.lines.get(name as DatasetName);
      if (line && d) Object.assign(line, { requests: d.requests, rows: d.rows, done: d.done });
    }
    this.render(progress.dataset);
  }

  /** ETA of one dataset, or of everything when `name` is undefined. */
  protected eta(name?: DatasetName): number {
    const all = [...this.lines.values()];
    const spent = all.reduce((s, l) => s + l.requests, 0);
    const rate = spent / Math.max(1, Date.now() - this.started);
    const pick = name ? [this.lines.get(name)].filter((l): l is Line => !!l) : all;
    const remaining = pick.reduce((s, l) => s + (l.done ? 0 : Math.max(0, l.planned - l.requests)), 0);
    // A dataset shares the pace with the others still running: requests are interleaved, so about as
    // many of theirs go out as of its own until it is done.
    return etaMs(name ? remaining + this.othersRemaining(name) : remaining, this.windows, rate);
  }

  private othersRemaining(name: DatasetName): number {
    let other = 0;
    for (const [n, l] of this.lines) if (n !== name && !l.done) other += Math.max(0, l.planned - l.requests);
    const mine = this.lines.get(name);
    return mine && !mine.done && mine.planned > mine.requests ? Math.min(other, mine.planned - mine.requests) : 0;
  }

  protected abstract render(dataset: DatasetName): void;
  abstract stop(result: SyncResult | undefined): void;
}

/** One bar per dataset, redrawn in place (a terminal). @internal */
export class BarsReporter extends BaseReporter {
  readonly #multi: cliProgress.MultiBar;
  readonly #bars = new Map<DatasetName, cliProgress.SingleBar>();

  constructor(plan: SyncPlan, windows: readonly SyncWindow[], stream: NodeJS.WriteStream) {
    super(plan, windows);
    this.#multi = new cliProgress.MultiBar(
      {
        format: ' {name} {bar} {value}/{total} req  {rows} rows  ETA {eta_budget}',
        barsize: 24,
        hideCursor: true,
        clearOnComplete: false,
        stream,
        etaBuffer: 50,
        fps: 10,
        autopadding: true,
      },
      cliProgress.Presets.shades_classic,
    );
    for (const [name, line] of this.lines)
      this.#bars.set(
        name,
        this.#multi.create(Math.max(1, line.planned), 0, { name: name.padEnd(17), rows: 0, eta_budget: '-' }),
      );
  }

  protected render(): void {
    for (const [name, line] of this.lines) {
      const bar = this.#bars.get(name);
      if (!bar) continue;
      const total = Math.max(1, line.planned, line.requests);
      bar.setTotal(total);
      bar.update(line.done ? total : Math.min(line.requests, total), {
        rows: line.rows.toLocaleString('en-US'),
        eta_budget: line.done ? 'done' : shortDuration(this.eta(name)),
      });
    }
  }

  stop(): void {
    this.#multi.stop();
  }
}

/** Plain lines for logs: one when a dataset completes, and a summary at most every `everyMs`. @internal */
export class LinesReporter extends BaseReporter {
  #last = 0;
  readonly #finished = new Set<DatasetName>();

  constructor(
    plan: SyncPlan,
    windows: readonly SyncWindow[],
    private readonly print: (line: string) => void,
    private readonly everyMs = 5_000,
  ) {
    super(plan, windows);
  }

  protected render(dataset: DatasetName): void {
    const line = this.lines.get(dataset);
    if (line?.done && !this.#finished.has(dataset)) {
      this.#finished.add(dataset);
      this.print(
        `${stamp()} ${dataset} done: ${line.requests.toLocaleString('en-US')} request${line.requests === 1 ? '' : 's'}, ${line.rows.toLocaleString('en-US')} rows`,
      );
    }
    if (Date.now() - this.#last >= this.everyMs) {
      this.#last = Date.now();
      const all = [...this.lines.values()];
      const spent = all.reduce((s, l) => s + l.requests, 0);
      const planned = all.reduce((s, l) => s + Math.max(l.planned, l.requests), 0);
      this.print(
        `${stamp()} progress: ${spent}/${planned} requests (${planned ? Math.floor((100 * spent) / planned) : 100}%), ETA ${shortDuration(this.eta())}`,
      );
    }
  }

  stop(): void {}
}

function stamp(): string {
  return `[${new Date().toISOString().slice(11, 19)}]`;
}
