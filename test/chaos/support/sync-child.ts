/**
 * A sync in its own process, for the chaos kill test: one `runSync` of the chaos job into SQLite
 * against the simulator's HTTP form, printing `req <n>` after every request and, at the end,
 * `result <json>`, or `failed <message>` when the run threw (a run that fails can be resumed: the
 * parent decides whether it ever completes). Everything the client logs or hands its hooks is
 * printed too (`out <json>`), so the parent can search it for the key.
 */
import { inspect } from 'node:util';
import { SeoVisibilityClient } from '../../../src/index.js';
import { runSync, sqliteStore } from '../../../src/sync/index.js';

const args = JSON.parse(process.argv[2] ?? '{}') as {
  baseUrl: string;
  apiKey: string;
  db: string;
  now: number;
  datasets: string[];
};
const out = (what: string, value: unknown) =>
  process.stdout.write(`out ${JSON.stringify({ what, text: inspect(value, { depth: 6 }) })}\n`);
const client = new SeoVisibilityClient({
  apiKey: args.apiKey,
  baseUrl: args.baseUrl,
  rateLimit: { windows: false },
  retryBackoff: { initialDelay: 1, maxDelay: 20 },
  timeout: 10_000,
  logLevel: 'debug',
  logger: { debug: (...a: unknown[]) => out('logger.debug', a), warn: (...a: unknown[]) => out('logger.warn', a) },
  hooks: { onResponse: [(info) => out('hook onResponse', info)], onError: [(info) => out('hook onError', info)] },
});
try {
  const result = await runSync(
    client,
    { projects: 'all', datasets: args.datasets as never },
    {
      store: sqliteStore(args.db),
      now: () => args.now,
      onProgress: (p) => process.stdout.write(`req ${p.requests}\n`),
    },
  );
  process.stdout.write(`result ${JSON.stringify(result)}\n`);
} catch (error) {
  out('runSync error', error);
  process.stdout.write(`failed ${JSON.stringify(String((error as Error)?.message ?? error).slice(0, 400))}\n`);
}
