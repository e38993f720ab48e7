import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import type { FleetEvent, FleetQueueOptions } from '../../../src/fleet/index.js';
import { createSimulator, listenAccounts, type Simulator, type SimulatorServer } from '../../../src/testing/index.js';
import { startPostgres, type TestPostgres } from '../../helpers/postgres-server.js';

/** One account as the worker processes are told it. */
export interface WorkerAccount {
  apiKey: string;
  baseUrl: string;
  windows: Array<{ limit: number; intervalMs: number }>;
  datasets?: string[];
}

/** What a worker process is started with. */
export interface WorkerArgs {
  postgres: string;
  accounts: Record<string, WorkerAccount>;
  queue: FleetQueueOptions;
  /** The warehouse schema. */
  schema: string;
  concurrency: number;
  exitWhenIdle: boolean;
}

/** The queue settings of the tests: a dead worker's account is handed over in about 12 s, not a minute. */
export const FAST_QUEUE: FleetQueueOptions = {
  heartbeatSeconds: 10,
  checkIntervalSeconds: 1,
  pollingIntervalSeconds: 1,
  retryDelaySeconds: 1,
  retryLimit: 5,
};

const DAY_MS = 86_400_000;

/** One simulated account: its simulator (own data, own key, own enforced windows). */
export interface SimAccount {
  id: string;
  sim: Simulator;
  windows: Array<{ limit: number; intervalMs: number }>;
}

/** Postgres, the accounts behind one loopback server, and a folder; closed together. */
export interface FleetEnv {
  pg: TestPostgres;
  server: SimulatorServer;
  accounts: SimAccount[];
  dir: string;
  script: string;
  /** The worker configuration of `ids` (every account by default), with `apiKey` overridden where given. */
  workerAccounts(ids?: string[], keys?: Record<string, string>): Record<string, WorkerAccount>;
  close(): Promise<void>;
}

/**
 * Starts Postgres and one simulator per account (seeded apart; `keywords` per project, 2 by
 * default, so each account is about 150 requests), each enforcing its own compressed windows,
 * behind one HTTP server. Also used by the fleet section of `npm run bench`.
 */
export async function startFleetEnv(
  specs: Array<{ id: string; windows: Array<{ limit: number; intervalMs: number }> }>,
  options: { keywords?: number; latencyMs?: number } = {},
): Promise<FleetEnv> {
  const dir = mkdtempSync(join(tmpdir(), 'sv-fleet-'));
  const [pg, bundle] = await Promise.all([startPostgres(), bundleWorker()]);
  const accounts = specs.map((spec, i) => ({
    id: spec.id,
    windows: spec.windows,
    sim: createSimulator({
      seed: 31 + i,
      keywordsPerProject: options.keywords ?? 2,
      latencyMs: options.latencyMs ?? 0,
      now: () => Date.now() - DAY_MS,
      rateLimit: { windows: spec.windows },
    }),
  }));
  // Seeded a day ago and moved on a day, to the real clock: the seeded audits have finished
  // crawling, so what an account serves no longer moves with the clock and copies made a minute
  // apart compare row for row, while the rate windows' resets are real times the clients can wait for.
  for (const a of accounts) await a.sim.advance(DAY_MS);
  const server = await listenAccounts(accounts.map((a) => a.sim));
  return {
    pg,
    server,
    accounts,
    dir,
    script: bundle.script,
    workerAccounts: (ids, keys = {}) =>
      Object.fromEntries(
        accounts
          .filter((a) => !ids || ids.includes(a.id))
          .map((a) => [a.id, { apiKey: keys[a.id] ?? a.sim.keys.readOnly, baseUrl: server.url, windows: a.windows }]),
      ),
    close: async () => {
      await server.close();
      await pg.stop();
      rmSync(dir, { recursive: true, force: true });
      rmSync(bundle.dir, { recursive: true, force: true });
    },
  };
}

/**
 * Bundles the worker once into node_modules/.cache (dependencies stay imports, resolved from the
 * repository's node_modules): a plain .mjs starts in a fraction of the time tsx takes.
 */
export async function bundleWorker(): Promise<{ script: string; dir: string }> {
  const cache = join(import.meta.dirname, '..', '..', '..', 'node_modules', '.cache');
  mkdirSync(cache, { recursive: true });
  const dir = mkdtempSync(join(cache, 'sv-fleet-'));
  const script = join(dir, 'worker.mjs');
  await build({
    entryPoints: [join(import.meta.dirname, 'worker.ts')],
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node22',
    outfile: script,
    logLevel: 'silent',
  });
  return { script, dir };
}

/** A running worker process and what it reported. */
export interface WorkerProcess {
  name: string;
  child: ChildProcess;
  events: FleetEvent[];
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; result?: unknown; stderr: string }>;
}

/** Starts a worker process; it is SIGKILLed if still running after `timeoutMs`. */
export function startWorker(
  env: Pick<FleetEnv, 'script'>,
  name: string,
  args: WorkerArgs,
  timeoutMs = 150_000,
): WorkerProcess {
  const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', env.script, JSON.stringify(args)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const events: FleetEvent[] = [];
  let buffer = '';
  let stderr = '';
  let result: unknown;
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdout?.on('data', (d: Buffer) => {
    buffer += d.toString();
    for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      if (line.startsWith('event ')) events.push(JSON.parse(line.slice(6)) as FleetEvent);
      if (line.startsWith('done ')) result = JSON.parse(line.slice(5));
    }
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; result?: unknown; stderr: string }>(
    (resolve) =>
      // 'close', not 'exit': every line the worker wrote has been read by then.
      child.on('close', (code, signal) => {
        clearTimeout(timer);
        resolve({ code, signal, result, stderr });
      }),
  );
  return { name, child, events, done };
}

/**
 * Polls `find` (a query: one at a time, each awaited) every 100 ms for up to `ms`; resolves with the
 * first value it finds. A synchronous `waitFor` around a query fired a new one every 100 ms whatever
 * the last was doing: under load they piled up, and the one that answered was seconds old.
 */
export async function waitForValue<T>(find: () => Promise<T | undefined>, ms: number, what: string): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const found = await find();
    if (found !== undefined) return found;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Polls `test` every 100 ms for up to `ms`. */
export async function waitFor(test: () => boolean, ms: number, what: string): Promise<void> {
  const until = Date.now() + ms;
  while (!test()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Who held which account when, from every worker's start/end events: a run a worker never ended
 * (it was killed) ends at `killedAt`. Throws when two holds of one account overlap.
 */
export function holds(
  workers: ReadonlyArray<WorkerProcess & { killedAt?: number }>,
): Map<string, Array<{ worker: string; from: number; to: number }>> {
  const out = new Map<string, Array<{ worker: string; from: number; to: number }>>();
  for (const w of workers) {
    const open = new Map<string, number>();
    for (const e of w.events) {
      if (!e.account || !e.jobId) continue;
      if (e.type === 'start') open.set(e.jobId, e.at);
      if (e.type === 'end') {
        const from = open.get(e.jobId) ?? e.at;
        open.delete(e.jobId);
        push(out, e.account, { worker: w.name, from, to: e.at });
      }
    }
    for (const [jobId, from] of open) {
      const account = w.events.find((e) => e.jobId === jobId)?.account ?? '?';
      push(out, account, { worker: w.name, from, to: w.killedAt ?? Number.POSITIVE_INFINITY });
    }
  }
  return out;
}

function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key) ?? [];
  map.set(key, list);
  list.push(value);
}
