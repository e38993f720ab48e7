import { existsSync } from 'node:fs';
import {
  type DatasetName,
  type SyncJob,
  type SyncResult,
  type SyncWindow,
  SyncError,
  planSync,
  runSync,
} from '../sync/index.js';
import { missedEventLines } from './missed-events.js';
import { type Connection, UsageError, connect } from './connect.js';
import { EXIT } from './exit-codes.js';
import { BarsReporter, LinesReporter, type Reporter, shortDuration } from './progress.js';
import { terminalJson, terminalText } from './terminal-text.js';
import { type StoreFlags, storeFactory } from './store-choice.js';

interface CommonOptions {
  project?: string[];
  datasets?: DatasetName[];
  reserve: number;
  simulator?: boolean;
  simulatorKeywords?: number;
}

interface IO {
  out: NodeJS.WriteStream;
  err: NodeJS.WriteStream;
  signal: AbortSignal;
}

function jobOf(opts: CommonOptions): SyncJob {
  return {
    projects: opts.project?.length ? opts.project : 'all',
    ...(opts.datasets ? { datasets: opts.datasets } : {}),
  };
}

/**
 * A reserve at or above the day's budget (the longest window's limit, as the sync reads it) would
 * leave nothing to spend: every run would stop at once, resumable forever. Refused before any request.
 */
function checkReserve(reserve: number, windows: readonly SyncWindow[]): void {
  const day = windows.reduce((a, b) => (b.intervalMs > a.intervalMs ? b : a));
  if (reserve >= day.limit)
    throw new UsageError(
      `--reserve must be below the day's budget of ${day.limit.toLocaleString('en-US')} requests, got ${reserve.toLocaleString('en-US')}`,
    );
}

/** Runs `fn` with a connection, turning errors into a message and an exit code. */
async function withConnection(opts: CommonOptions, io: IO, fn: (c: Connection) => Promise<number>): Promise<number> {
  let connection: Connection | undefined;
  try {
    connection = await connect({ simulator: opts.simulator, keywords: opts.simulatorKeywords });
    checkReserve(opts.reserve, connection.windows);
    return await fn(connection);
  } catch (error) {
    io.err.write(`seo-visibility: ${terminalText(error instanceof Error ? error.message : String(error))}\n`);
    const usage =
      error instanceof UsageError ||
      (error as { name?: string })?.name === 'InvalidArgumentError' ||
      (error instanceof SyncError && (error.code === 'unknown_project' || error.code === 'job_changed'));
    return usage ? EXIT.usage : EXIT.failed;
  } finally {
    await connection?.close();
  }
}

/** The store the flags name, or a usage error written to stderr (exit 2). */
function chooseStore(
  flags: StoreFlags,
  io: IO,
  options: { required: boolean; allowNdjson: boolean },
): ReturnType<typeof storeFactory> | number {
  try {
    return storeFactory(flags, process.env, options);
  } catch (error) {
    io.err.write(`seo-visibility: ${terminalText(error instanceof Error ? error.message : String(error))}\n`);
    return EXIT.usage;
  }
}

/** `seo-visibility plan`. @internal */
export function planCommand(opts: CommonOptions & StoreFlags & { json?: boolean }, io: IO): Promise<number> {
  const store = chooseStore(opts, io, { required: false, allowNdjson: false });
  if (typeof store === 'number') return Promise.resolve(store);
  return withConnection(opts, io, async ({ client, windows, source }) => {
    // A plan reads a store; it never creates one: a --db file that is not there yet holds nothing,
    // so the plan counts every request without opening (and so creating) it.
    const absent = opts.db !== undefined && opts.db !== ':memory:' && !existsSync(opts.db);
    const plan = await planSync(client, jobOf(opts), {
      store: absent ? undefined : store?.(),
      budget: { reserve: opts.reserve },
      windows,
      signal: io.signal,
    });
    if (opts.json) io.out.write(`${terminalJson({ ...plan, summary: undefined, summaryText: plan.summary })}\n`);
    else io.out.write(`Plan for ${source}\n${terminalText(plan.summary)}\n`);
    return EXIT.done;
  });
}

/** `seo-visibility sync`. @internal */
export function syncCommand(
  opts: CommonOptions & StoreFlags & { maxRequests?: number; concurrency: number; fresh?: boolean; progress?: string },
  io: IO,
): Promise<number> {
  const chosen = chooseStore(opts, io, { required: true, allowNdjson: true });
  if (typeof chosen === 'number') return Promise.resolve(chosen);
  const store = chosen as NonNullable<typeof chosen>;
  // --progress is one of bars, lines or none: commander checked it while parsing.
  const mode = opts.progress ?? (io.out.isTTY ? 'bars' : 'lines');
  return withConnection(opts, io, async ({ client, windows, source }) => {
    const job = jobOf(opts);
    // Lines may quote the server (a project's name, a reason): printed through terminalText.
    const say = (line: string) => io.out.write(`${terminalText(line)}\n`);
    say(
      `Syncing ${job.projects === 'all' ? 'all projects' : `${job.projects.length} project(s)`} from ${source} into ${store().location}`,
    );
    let reporter: Reporter | undefined;
    if (mode !== 'none') {
      const plan = await planSync(client, job, {
        store: store(),
        budget: { reserve: opts.reserve },
        windows,
        signal: io.signal,
      }).catch((error: unknown) => {
        // The first Ctrl-C while planning: nothing is running yet, so stop here with nothing lost.
        if (io.signal.aborted) return undefined;
        throw error;
      });
      if (!plan) {
        say('Stopped: interrupted while planning. Nothing was written; run the same command again to start.');
        return EXIT.stopped;
      }
      say(
        `Plan: ${plan.requests.toLocaleString('en-US')} requests, ${shortDuration(plan.leastTimeMs)} at the least; ${plan.fitsToday ? "fits in today's budget" : `spans ${plan.days} days of budget`}; rankings.history: ${plan.historyPath}`,
      );
      reporter = mode === 'bars' ? new BarsReporter(plan, windows, io.out) : new LinesReporter(plan, windows, say);
    }
    let result: SyncResult | undefined;
    try {
      result = await runSync(client, job, {
        store: store(),
        signal: io.signal,
        onProgress: (p) => reporter?.update(p),
        budget: { maxRequests: opts.maxRequests, reserve: opts.reserve },
        concurrency: opts.concurrency,
        windows,
        fresh: opts.fresh,
      });
    } finally {
      reporter?.stop(result);
    }
    const rows = Object.values(result.datasets).reduce((s, d) => s + (d?.rows ?? 0), 0);
    say(
      `${result.requests.toLocaleString('en-US')} requests, ${rows.toLocaleString('en-US')} rows written (snapshot ${result.snapshotDate}, run ${result.run}).`,
    );
    for (const line of missedEventLines(result.missedEvents)) say(line);
    if (result.status === 'completed') {
      say('Done: every dataset is up to date.');
      return EXIT.done;
    }
    const why = {
      max_requests: '--max-requests reached',
      daily_budget: "today's budget is spent (less --reserve)",
      rate_limited: 'the rate limit resets later than the client waits',
      aborted: 'interrupted',
    }[result.reason ?? 'aborted'];
    say(`Stopped: ${why}. Progress is saved; run the same command again to resume.`);
    return EXIT.stopped;
  });
}
