/**
 * 2. Requests per full iteration, 4. Prefetch, 5. Memory: iteration against the simulator
 * (in-process `sim.fetch`, so only the client's behaviour is measured).
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { SeoVisibilityClient } from '../src/index.js';
import { createSimulator } from '../src/testing/index.js';
import { QUICK, type Row, ms, sleep } from './lib.js';

/** A client on an in-process simulator whose fetch counts requests; the rate budget never binds. */
function setup(keywords: number, latencyMs = 0) {
  // A window too large to bind: the budget reported shrinks honestly, as a real server's does.
  const sim = createSimulator({
    seed: 11,
    keywordsPerProject: keywords,
    rateLimit: { windows: [{ limit: 1e9, intervalMs: 3_600_000 }] },
    latencyMs,
  });
  let requests = 0;
  const fetch: typeof globalThis.fetch = (input, init) => {
    requests++;
    return sim.fetch(input as string, init);
  };
  const client = new SeoVisibilityClient({
    apiKey: sim.keys.readOnly,
    baseUrl: sim.baseUrl,
    fetch,
    rateLimit: { windows: false },
  });
  return { client, projectId: sim.data.listedProjects[0]!.id, requests: () => requests };
}

/** The least wall time `n` requests take under 200/minute (the first 200 go at once). */
const budgetTime = (n: number) => {
  const minutes = Math.max(0, Math.ceil(n / 200) - 1);
  return minutes === 0 ? 'no wait' : `≥ ${minutes} min`;
};

export async function requestCount(): Promise<Row[]> {
  const n = QUICK ? 10_000 : 100_000;
  const sdk = setup(n);
  let items = 0;
  let start = performance.now();
  for await (const _ of sdk.client.rankings.list(sdk.projectId)) items++;
  const sdkMs = performance.now() - start;

  const naive = setup(n);
  let naiveItems = 0;
  start = performance.now();
  // What a hand-written loop does with the server's default page size.
  let page = await naive.client.rankings.list(naive.projectId);
  naiveItems += page.items.length;
  while (page.hasNextPage()) {
    page = await page.getNextPage();
    naiveItems += page.items.length;
  }
  const naiveMs = performance.now() - start;
  // Each page after the first is read one item early, to see a list that moves under the loop
  // (docs/pagination.md, "A list that changes while you read it"): it brings 999 new items.
  const want = 1 + Math.ceil((n - 1000) / 999);
  return [
    {
      section: '2. Requests per iteration',
      figure: `for await over ${n.toLocaleString('en')} keywords`,
      // At the documented 200/minute, the request count is what sets the time on a real server.
      value: `${sdk.requests()} requests: ${budgetTime(sdk.requests())} of the 200/min budget (${ms(sdkMs, 0)} here)`,
      peer: `default-page loop: ${naive.requests()} requests, ${budgetTime(naive.requests())} (${ms(naiveMs, 0)} here)`,
      target: `= 1 + ceil((N − 1000)/999) = ${want}`,
      pass: sdk.requests() === want && items === n && naiveItems === n,
      binding: true,
    },
  ];
}

/** Iterates `pages` pages of 1,000 with a consumer that works `workMs` per page; tracks read-ahead. */
async function slowConsumer(
  options: { prefetch?: number; concurrency?: number },
  pages: number,
  latencyMs: number,
  workMs: number,
) {
  const { client, projectId, requests } = setup(pages * 1000, latencyMs);
  let consumed = 0;
  let maxAhead = 0;
  const start = performance.now();
  for await (const page of client.rankings.list(projectId).pages(options)) {
    consumed++;
    maxAhead = Math.max(maxAhead, requests() - consumed);
    void page;
    await sleep(workMs); // the caller's work on this page (a database write, say)
    maxAhead = Math.max(maxAhead, requests() - consumed);
  }
  return { ms: performance.now() - start, maxAhead, requests: requests() };
}

export async function prefetch(): Promise<Row[]> {
  const pages = QUICK ? 5 : 20;
  const latency = 40;
  const work = 40;
  const strict = await slowConsumer({ prefetch: 0 }, pages, latency, work);
  const ahead = await slowConsumer({}, pages, latency, work);
  const fastStrict = await slowConsumer({ prefetch: 0 }, pages, latency, 0);
  const parallel = await slowConsumer({ concurrency: 4 }, pages, latency, 0);
  return [
    {
      section: '4. Prefetch',
      figure: `default read-ahead (prefetch 1): ${pages} pages, ${latency} ms latency, ${work} ms work per page`,
      value: `${ms(ahead.ms, 0)} (${(ahead.ms / strict.ms).toFixed(2)}x); at most ${ahead.maxAhead} page ahead`,
      peer: `strict sequential (prefetch 0): ${ms(strict.ms, 0)}`,
      target: '≤ 0.70x (ideal 0.5x); ≤ 1 page ahead',
      pass: ahead.maxAhead <= 1 && strict.maxAhead === 0 && ahead.ms / strict.ms <= 0.7,
      binding: true,
      holds: ahead.maxAhead <= 1 && strict.maxAhead === 0,
    },
    {
      section: '4. Prefetch',
      figure: `concurrency 4: ${pages} pages, ${latency} ms latency, a fast consumer`,
      value: `${ms(parallel.ms, 0)} (${(parallel.ms / fastStrict.ms).toFixed(2)}x); at most ${parallel.maxAhead} pages ahead`,
      peer: `strict sequential: ${ms(fastStrict.ms, 0)}`,
      target: '≤ 0.40x (ideal 0.25x); ≤ 4 pages ahead; same request count',
      pass: parallel.maxAhead <= 4 && parallel.requests === fastStrict.requests && parallel.ms / fastStrict.ms <= 0.4,
      binding: true,
      holds: parallel.maxAhead <= 4 && parallel.requests === fastStrict.requests,
    },
  ];
}

export async function memory(): Promise<Row[]> {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const heap = () => {
    gc();
    gc(); // a second pass collects what the first only finalized
    return process.memoryUsage().heapUsed;
  };
  const n = QUICK ? 10_000 : 100_000;
  const { client, projectId } = setup(n);

  // A first pass warms up code and one-time caches, so the baseline holds only what stays.
  for await (const kw of client.rankings.list(projectId, { limit: 1000 }).iterate({ prefetch: 0 })) void kw;
  const samples = [heap()];
  let count = 0;
  for await (const kw of client.rankings.list(projectId)) {
    // Sample once per page (page boundaries fall on multiples of 1,000).
    if (++count % 1000 === 500) samples.push(heap());
    void kw;
  }

  // Growth: the highest sample over the lowest (the baseline moves a little as caches settle).
  const peak = Math.max(...samples) - Math.min(...samples);
  const all = [];
  const before = heap();
  for await (const kw of client.rankings.list(projectId)) all.push(kw);
  const whole = heap() - before;
  if (all.length !== n) throw new Error(`expected ${n} keywords, got ${all.length}`); // also keeps \`all\` alive until measured
  const perPage = whole / (n / 1000);
  const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
  return [
    {
      section: '5. Memory',
      figure: `heap growth iterating ${n.toLocaleString('en')} keywords (peak, after GC)`,
      value: `${mib(peak)} (${(peak / perPage).toFixed(1)} pages' worth)`,
      peer: `holding the whole set: ${mib(whole)}`,
      target: `≤ 5 pages (one page's records ≈ ${mib(perPage)}; read-ahead holds 2 plus a response body)`,
      pass: peak <= 5 * perPage,
    },
  ];
}
