/**
 * 3. Rate budget use: several concurrent callers against the simulator enforcing fixed windows.
 * Zero 429 responses, and a sustained rate close to what the windows allow.
 */
import { type RateWindow, SeoVisibilityClient } from '../src/index.js';
import { createSimulator } from '../src/testing/index.js';
import { QUICK, type Row, sleep } from './lib.js';

type Window = RateWindow;

/** The earliest send times the server's fixed windows allow, from an aligned start (greedy). */
function idealSends(windows: Window[], n: number): number[] {
  const times: number[] = [];
  let t = 0;
  while (times.length < n) {
    const fits = windows.every(
      (w) => times.filter((s) => Math.floor(s / w.intervalMs) === Math.floor(t / w.intervalMs)).length < w.limit,
    );
    if (fits) times.push(t);
    // Next candidate: now again if it fit, else the next window boundary of any window.
    else t = Math.min(...windows.map((w) => (Math.floor(t / w.intervalMs) + 1) * w.intervalMs));
  }
  return times;
}

/** The simulator's fetch, recording when each request was sent and counting the 429s it answered. */
function countingFetch(sim: ReturnType<typeof createSimulator>) {
  const sends: number[] = [];
  const limited = { count: 0 };
  const fetch: typeof globalThis.fetch = async (input, init) => {
    sends.push(Date.now());
    const response = await sim.fetch(input as string, init);
    if (response.status === 429) limited.count++;
    return response;
  };
  return { fetch, sends, limited };
}

/**
 * Runs `total` calls from `callers` concurrent loops. `pace`: the client's local windows mirror the
 * server's; otherwise it follows only the `remaining`/`reset` each response reports.
 */
async function run(windows: Window[], total: number, callers: number, pace: boolean) {
  const sim = createSimulator({ seed: 13, rateLimit: { windows }, latencyMs: 2 });
  const { fetch, sends, limited } = countingFetch(sim);
  const client = new SeoVisibilityClient({
    apiKey: sim.keys.readOnly,
    baseUrl: sim.baseUrl,
    fetch,
    rateLimit: { windows: pace ? windows : false },
  });
  const projectId = sim.data.listedProjects[0]!.id;
  // Start on a boundary of the longest window, as the ideal schedule does (windows are aligned on the clock).
  const longest = Math.max(...windows.map((w) => w.intervalMs));
  await sleep(longest - (Date.now() % longest) + 5);
  const start = Date.now();
  await Promise.all(
    Array.from({ length: callers }, async () => {
      for (let i = 0; i < total / callers; i++) await client.backlinks.summary(projectId);
    }),
  );
  const ideal = idealSends(windows, sends.length);
  const actualSpan = (sends.at(-1) as number) - start;
  const idealSpan = ideal.at(-1) as number;
  return {
    limited: limited.count,
    requests: sends.length,
    actualSpan,
    idealSpan,
    efficiency: idealSpan / Math.max(actualSpan, idealSpan, 1),
  };
}

/**
 * Issue 16's burst: `n` calls at once on a client with default options (the windows apart: the
 * simulator's, compressed `speedup`×), against the documented minute/hour/day. Every call must
 * queue for the budget and succeed: no failure, no 429.
 */
async function burst(n: number, speedup: number) {
  const sim = createSimulator({ seed: 17, speedup, latencyMs: 2 });
  const { fetch, sends, limited } = countingFetch(sim);
  const client = new SeoVisibilityClient({
    apiKey: sim.keys.readOnly,
    baseUrl: sim.baseUrl,
    fetch,
    rateLimit: { windows: sim.rateWindows },
  });
  const projectId = sim.data.listedProjects[0]!.id;
  const minute = sim.rateWindows[0]!.intervalMs;
  await sleep(minute - (Date.now() % minute) + 5);
  const start = Date.now();
  const outcomes = await Promise.allSettled(Array.from({ length: n }, () => client.backlinks.summary(projectId)));
  const span = Date.now() - start;
  const idealSpan = idealSends(sim.rateWindows, n).at(-1) as number;
  return {
    failures: outcomes.filter((o) => o.status === 'rejected').length,
    limited: limited.count,
    requests: sends.length,
    span,
    idealSpan,
  };
}

const describe = (windows: Window[]) => windows.map((w) => `${w.limit}/${w.intervalMs / 1000} s`).join(' + ');

export async function rateBudget(): Promise<Row[]> {
  const short: Window[] = QUICK ? [{ limit: 10, intervalMs: 1_000 }] : [{ limit: 20, intervalMs: 2_000 }];
  const total = QUICK ? 40 : 200;
  const callers = 5;
  // The documented minute/hour/day windows, compressed: each binds in turn. Windows are whole
  // seconds because `reset` is reported in whole seconds, as the API documents.
  const documented: Window[] = QUICK
    ? [
        { limit: 5, intervalMs: 1_000 },
        { limit: 10, intervalMs: 2_000 },
        { limit: 15, intervalMs: 4_000 },
      ]
    : [
        { limit: 10, intervalMs: 1_000 },
        { limit: 30, intervalMs: 4_000 },
        { limit: 60, intervalMs: 12_000 },
      ];
  const documentedTotal = QUICK ? 20 : 80;

  const rows: Row[] = [];
  const cases: Array<[string, Window[], number, boolean]> = [
    [
      `${total} calls, ${callers} callers, simulator ${describe(short)}, client windows set to match`,
      short,
      total,
      true,
    ],
    [
      `${total} calls, ${callers} callers, simulator ${describe(short)}, server-reported budget only`,
      short,
      total,
      false,
    ],
    [
      `${documentedTotal} calls, ${callers} callers, minute/hour/day compressed to ${describe(documented)}`,
      documented,
      documentedTotal,
      true,
    ],
  ];
  for (const [figure, windows, n, pace] of QUICK ? [cases[0]!, cases[2]!] : cases) {
    const r = await run(windows, n, callers, pace);
    rows.push({
      section: '3. Rate budget',
      figure,
      value: `${r.limited} × 429; ${r.requests} requests in ${(r.actualSpan / 1000).toFixed(2)} s = ${(r.efficiency * 100).toFixed(1)}% of the allowed rate`,
      peer: `fastest the windows allow: ${(r.idealSpan / 1000).toFixed(2)} s`,
      target: '0 × 429; ≥ 95%',
      pass: r.limited === 0 && r.requests === n && r.efficiency >= 0.95,
      binding: true,
      holds: r.limited === 0 && r.requests === n,
    });
  }
  const burstSize = QUICK ? 300 : 600;
  const speedup = QUICK ? 120 : 60;
  const b = await burst(burstSize, speedup);
  rows.push({
    section: '3. Rate budget',
    figure: `a burst of ${burstSize} calls at once, default options, documented 200/min + 5,000/h + 50,000/day compressed ${speedup}×`,
    value: `${b.failures} failures, ${b.limited} × 429; ${b.requests} requests in ${(b.span / 1000).toFixed(2)} s = ${(b.span / Math.max(b.idealSpan, 1)).toFixed(2)}× the least time`,
    peer: `least time the windows allow: ${(b.idealSpan / 1000).toFixed(2)} s`,
    target: '0 failures, 0 × 429; ≤ 1.2× the least time',
    pass: b.failures === 0 && b.limited === 0 && b.requests === burstSize && b.span <= 1.2 * b.idealSpan,
    binding: true,
    holds: b.failures === 0 && b.limited === 0 && b.requests === burstSize,
  });
  return rows;
}
