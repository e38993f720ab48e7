/**
 * Shared bench helpers: medians, interleaved timing against a peer, a canned loopback server, and
 * the result rows every section reports (figure, target, peer, PASS/FAIL).
 */
import { createServer } from 'node:http';

/** Set by `BENCH_QUICK=1` or `--quick`: few runs, only the request-count and 429 checks are binding. */
export const QUICK = process.env.BENCH_QUICK === '1' || process.argv.includes('--quick');

/** One line of the report. `pass` undefined: informational. `binding`: checked in quick mode too. */
export interface Row {
  section: string;
  figure: string;
  value: string;
  peer: string;
  target: string;
  pass: boolean | undefined;
  /** Checked in quick mode too. */
  binding?: boolean;
  /** What binds in quick mode when it is less than `pass` (counts and bounds, not timing ratios). */
  holds?: boolean;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

export const ms = (value: number, digits = 3) => `${value.toFixed(digits)} ms`;
export const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

/**
 * Times `a` and `b` alternately (`runs` each, after `warmup` each), so drift and other load on the
 * machine hit both alike. Returns the median of each and their ratio.
 */
export function versus(
  a: () => Promise<unknown>,
  b: () => Promise<unknown>,
  runs: number,
  warmup = Math.ceil(runs / 5),
) {
  return alternate(a, b, runs, warmup, async (call) => {
    const start = performance.now();
    await call();
    return performance.now() - start;
  });
}

/**
 * As {@link versus}, but each call's CPU time (user + system, `process.cpuUsage`) instead of its
 * wall time: on a machine shared with other work, waiting for a core inflates the wall time of the
 * longer call more, while CPU time counts only the work itself. Both sides run in this process
 * (server included), so the ratio is of everything each side costs.
 */
export function versusCpu(
  a: () => Promise<unknown>,
  b: () => Promise<unknown>,
  runs: number,
  warmup = Math.ceil(runs / 5),
) {
  return alternate(a, b, runs, warmup, async (call) => {
    const start = process.cpuUsage();
    await call();
    const used = process.cpuUsage(start);
    return (used.user + used.system) / 1000;
  });
}

/** Runs `a` and `b` `warmup` times each, then `runs` times each, measuring each timed call with `measure` (ms). */
async function alternate(
  a: () => Promise<unknown>,
  b: () => Promise<unknown>,
  runs: number,
  warmup: number,
  measure: (call: () => Promise<unknown>) => Promise<number>,
) {
  for (let i = 0; i < warmup; i++) {
    await a();
    await b();
  }
  const ta: number[] = [];
  const tb: number[] = [];
  for (let i = 0; i < runs; i++) {
    // Swap who goes first every run: neither side always runs on a warmer cache.
    for (const side of i % 2 === 0 ? [0, 1] : [1, 0]) {
      const taken = await measure(side === 0 ? a : b);
      (side === 0 ? ta : tb).push(taken);
    }
  }
  const ma = median(ta);
  const mb = median(tb);
  return { a: ma, b: mb, ratio: ma / mb };
}

/**
 * A loopback HTTP server answering each path with a fixed body, so both sides of a comparison read
 * byte-identical responses and server time is the same small constant for both.
 */
export async function cannedServer(bodies: Record<string, string>) {
  const server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0] as string;
    const body = bodies[path];
    if (body === undefined) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export const sleep = (msec: number) => new Promise((resolve) => setTimeout(resolve, msec));
