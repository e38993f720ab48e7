/**
 * A sync in its own process, for the kill tests: runs one `runSync` with the job and store given as
 * JSON in argv[2], prints `req <n>` after every request and `result <json>` at the end.
 */
import { SeoVisibilityClient } from '../../../src/index.js';
import { ndjsonStore, postgresStore, runSync, sqliteStore } from '../../../src/sync/index.js';
import { crashAtStep } from './crash-at.js';

interface ChildArgs {
  baseUrl: string;
  apiKey: string;
  db?: string;
  ndjson?: string;
  /** A Postgres URL; the schema is `schema`. */
  postgres?: string;
  schema?: string;
  now: number;
  concurrency?: number;
  maxRequests?: number;
  datasets?: string[];
  /** SIGKILL this process just before its n-th call that changes a file (see crash-at.ts). */
  crashAtStep?: number;
}

const args = JSON.parse(process.argv[2] ?? '{}') as ChildArgs;
if (args.crashAtStep !== undefined) crashAtStep(args.crashAtStep);
const client = new SeoVisibilityClient({
  apiKey: args.apiKey,
  baseUrl: args.baseUrl,
  rateLimit: { windows: false },
  retryBackoff: { initialDelay: 1, maxDelay: 5 },
});
const store = args.db
  ? sqliteStore(args.db)
  : args.postgres
    ? postgresStore(args.postgres, { schema: args.schema })
    : ndjsonStore(args.ndjson ?? '');
const result = await runSync(
  client,
  { projects: 'all', ...(args.datasets ? { datasets: args.datasets as never } : {}) },
  {
    store,
    now: () => args.now,
    concurrency: args.concurrency ?? 4,
    budget: { maxRequests: args.maxRequests },
    onProgress: (p) => process.stdout.write(`req ${p.requests}\n`),
  },
);
process.stdout.write(`result ${JSON.stringify(result)}\n`);
