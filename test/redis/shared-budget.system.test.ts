import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createSimulator } from '../../src/testing/index.js';
import { type TestRedis, startRedis } from './redis-server.js';

const WORKER = fileURLToPath(new URL('./fixtures/worker.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const WINDOW = { limit: 20, intervalMs: 1_000 };
const PROCESSES = 4;
const PER_PROCESS = 40; // 160 requests: 8 windows' worth
const CONCURRENCY = 3;

interface WorkerReport {
  ok: number;
  errors: Record<string, number>;
  ms: number;
  /** Epoch ms of the worker's first request, and of its last answer. */
  started: number;
  finished: number;
}

/**
 * Starts one worker process (bounded by a 40 s kill): `ready` resolves once it can send, `go()` lets
 * it send, `report` is what it printed last.
 */
function startWorker(args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', WORKER, ...args], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  let signalReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => (signalReady = resolve));
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk;
    if (out.startsWith('ready\n')) signalReady();
  });
  child.stderr.on('data', (chunk: Buffer) => (err += chunk));
  const timer = setTimeout(() => child.kill('SIGKILL'), 40_000);
  const report = new Promise<WorkerReport>((resolve, reject) => {
    child.on('exit', (code) => {
      clearTimeout(timer);
      signalReady(); // a worker that died before `ready` must not hold the others back
      if (code !== 0) return reject(new Error(`worker exited with ${code}: ${err}`));
      resolve(JSON.parse(out.trim().split('\n').at(-1) ?? '') as WorkerReport);
    });
  });
  report.catch(() => {}); // awaited by runFleet
  return { ready, report, go: () => child.stdin.end('go\n') };
}

/** Starts a simulator with a short enforced window, runs the fleet against it, and reads its log. */
async function runFleet(redisUrl: string | undefined, id: string) {
  const sim = createSimulator({ seed: 7, rateLimit: { windows: [WINDOW] }, latencyMs: 5 });
  const server = await sim.listen({ port: 0 });
  try {
    const args = [server.url, sim.keys.readWrite, String(PER_PROCESS), String(CONCURRENCY), redisUrl ?? 'none', id];
    const workers = Array.from({ length: PROCESSES }, () => startWorker(args));
    await Promise.all(workers.map((w) => w.ready));
    for (const worker of workers) worker.go();
    const reports = await Promise.all(workers.map((w) => w.report));
    const log = sim.requests.filter((r) => r.path === '/projects');
    return { reports, log, ...windowStats(log, reports) };
  } finally {
    await server.close();
  }
}

/**
 * Success count per simulator window, from the first request's window to the last one's, and the
 * throughput: what the median window the whole fleet was busy in carried against what it allowed.
 * Those are the windows that start after every worker sent its first request and end before the
 * first worker ran out of work: the workers start together, but on a loaded machine one may still
 * lag, and a window it was absent from measures the machine, not the shared budget.
 */
function windowStats(log: ReadonlyArray<{ status: number | null; at: number }>, reports: WorkerReport[]) {
  const ok = log.filter((r) => r.status === 200);
  const windowOf = (at: number) => Math.floor(at / WINDOW.intervalMs);
  const first = windowOf(Math.min(...ok.map((r) => r.at)));
  const last = windowOf(Math.max(...ok.map((r) => r.at)));
  const perWindow = Array.from(
    { length: last - first + 1 },
    (_, i) => ok.filter((r) => windowOf(r.at) === first + i).length,
  );
  const busyFrom = windowOf(Math.max(...reports.map((r) => r.started))) + 1 - first;
  const busyTo = windowOf(Math.min(...reports.map((r) => r.finished))) - first;
  const busy = perWindow.slice(Math.max(1, busyFrom), Math.min(perWindow.length - 1, busyTo));
  // The median busy window: a gate that leaves budget idle does so in every window, while a loaded
  // machine that starves a process now and then costs a window or two, and says nothing of the gate.
  const sorted = [...busy].sort((a, b) => a - b);
  const median =
    sorted.length === 0
      ? 0
      : ((sorted[Math.floor((sorted.length - 1) / 2)] ?? 0) + (sorted[Math.ceil((sorted.length - 1) / 2)] ?? 0)) / 2;
  const throughput = median / WINDOW.limit;
  return { perWindow, busyWindows: busy.length, throughput, rejected: log.filter((r) => r.status === 429).length };
}

let redis: TestRedis;
beforeAll(async () => {
  redis = await startRedis();
}, 15_000);
afterAll(async () => {
  await redis?.stop();
});

describe('a rate budget shared through Redis', () => {
  test(`${PROCESSES} processes on one key: no 429 with Redis, 429s without it, the median busy window uses ≥ 90% of its allowance`, async () => {
    const id = `seo-visibility-test:${process.pid}:${Date.now()}`;
    const shared = await runFleet(redis.url, id);
    const alone = await runFleet(undefined, id);

    const sent = shared.reports.reduce((n, r) => n + r.ok, 0);
    expect(shared.reports.flatMap((r) => Object.keys(r.errors))).toEqual([]);
    expect(sent).toBe(PROCESSES * PER_PROCESS);
    // No 429 is the whole claim: the simulator never lets a window carry more than its limit. (The
    // per-window counts below are by arrival time, which may fall a few ms before the window the
    // request was counted in, so they are a throughput figure, not a second check of the limit.)
    expect(shared.rejected).toBe(0);
    expect(shared.busyWindows, `successes per window: ${shared.perWindow.join('/')}`).toBeGreaterThanOrEqual(2);
    expect(shared.throughput, `successes per window: ${shared.perWindow.join('/')}`).toBeGreaterThanOrEqual(0.9);

    // The same fleet, each process throttling on its own: it overdraws the key.
    expect(alone.rejected).toBeGreaterThan(0);
    console.info(
      `shared: ${shared.rejected} × 429, per window ${shared.perWindow.join('/')}, throughput ${(shared.throughput * 100).toFixed(0)}% over ${shared.busyWindows} busy windows; ` +
        `per process: ${alone.rejected} × 429`,
    );
  }, 60_000);
});
