import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createSimulator } from '../../src/testing/index.js';
import { type TestRedis, startRedis } from './redis-server.js';

const WORKER = fileURLToPath(new URL('./fixtures/worker.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const WINDOW = { limit: 20, windowMs: 1_000 };
const PROCESSES = 4;
const PER_PROCESS = 40; // 160 requests: 8 windows' worth
const CONCURRENCY = 3;

interface WorkerReport {
  ok: number;
  errors: Record<string, number>;
  ms: number;
}

/** Runs one worker process to completion (bounded by a 30 s kill) and parses its report. */
function runWorker(args: string[]): Promise<WorkerReport> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', WORKER, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      if (code !== 0) return reject(new Error(`worker exited with ${code}: ${err}`));
      resolve(JSON.parse(out.trim().split('\n').at(-1) ?? '') as WorkerReport);
    });
  });
}

/** Starts a simulator with a short enforced window, runs the fleet against it, and reads its log. */
async function runFleet(redisUrl: string | undefined, id: string) {
  const sim = createSimulator({ seed: 7, rateLimit: { windows: [WINDOW] }, latencyMs: 5 });
  const server = await sim.listen({ port: 0 });
  try {
    const args = [server.url, sim.keys.readWrite, String(PER_PROCESS), String(CONCURRENCY), redisUrl ?? 'none', id];
    const reports = await Promise.all(Array.from({ length: PROCESSES }, () => runWorker(args)));
    const log = sim.requests.filter((r) => r.path === '/projects');
    return { reports, log, ...windowStats(log) };
  } finally {
    await server.close();
  }
}

/**
 * Success count per simulator window, from the first request's window to the last one's. The first
 * window starts before the fleet (processes take a moment to start) and the last one after it ran
 * out of work; every window between is time the fleet was busy, so the throughput is what those
 * windows carried against what they allowed.
 */
function windowStats(log: ReadonlyArray<{ status: number | null; at: number }>) {
  const ok = log.filter((r) => r.status === 200);
  const first = Math.floor(Math.min(...ok.map((r) => r.at)) / WINDOW.windowMs);
  const last = Math.floor(Math.max(...ok.map((r) => r.at)) / WINDOW.windowMs);
  const perWindow = Array.from({ length: last - first + 1 }, (_, i) => ok.filter((r) => Math.floor(r.at / WINDOW.windowMs) === first + i).length);
  const full = perWindow.slice(1, -1);
  const throughput = full.reduce((a, b) => a + b, 0) / (full.length * WINDOW.limit);
  return { perWindow, throughput, rejected: log.filter((r) => r.status === 429).length };
}

let redis: TestRedis;
beforeAll(async () => {
  redis = await startRedis();
}, 15_000);
afterAll(async () => {
  await redis?.stop();
});

describe('a rate budget shared through Redis', () => {
  test(
    `${PROCESSES} processes on one key: no 429 with Redis, 429s without it, ≥ 90% of the window's allowance used`,
    async () => {
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
      expect(shared.throughput, `successes per window: ${shared.perWindow.join("/")}`).toBeGreaterThanOrEqual(0.9);

      // The same fleet, each process throttling on its own: it overdraws the key.
      expect(alone.rejected).toBeGreaterThan(0);
      console.info(
        `shared: ${shared.rejected} × 429, per window ${shared.perWindow.join('/')}, throughput ${(shared.throughput * 100).toFixed(0)}%; ` +
          `per process: ${alone.rejected} × 429`,
      );
    },
    60_000,
  );
});
