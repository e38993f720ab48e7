/**
 * Runs generated example modules one after another, each with fresh fixtures, and writes what
 * happened to a JSON file. A child process of its own (started with tsx by the test), so the
 * examples resolve `seo-visibility` through the repo's tsconfig paths as a reader's code resolves
 * the package, and a stray timer of an example cannot keep the test runner alive. The Redis
 * examples get a throwaway redis-server in REDIS_URL (or the REDIS_URL already set).
 *
 * Run: `tsx test/docs/support/run-examples.ts <manifest.json> <results.json> [timeout ms per example]`
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startRedis } from '../../redis/redis-server.js';
import { startPostgres } from '../../helpers/postgres-server.js';
import { makeFixtures } from './fixtures.js';

/** One line of the manifest. */
export interface ManifestEntry {
  id: string;
  name: string;
}

/** What one example did. */
export interface RunResult {
  id: string;
  ok: boolean;
  error?: string;
}

const [manifestPath, resultsPath, timeout] = process.argv.slice(2);
if (!manifestPath || !resultsPath)
  throw new Error('usage: run-examples.ts <manifest.json> <results.json> [timeout ms per example]');
const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as ManifestEntry[];
const folder = dirname(manifestPath);
const TIMEOUT_MS = Number(timeout ?? 20_000);

let current: RunResult | undefined;
// An example that leaves a promise rejected and unhandled is a failing example.
process.on('unhandledRejection', (reason) => {
  if (current?.ok) Object.assign(current, { ok: false, error: `unhandled rejection: ${describe(reason)}` });
});

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

const quiet = { log: console.log, info: console.info, warn: console.warn, error: console.error, debug: console.debug };
const silence = () => Object.assign(console, { log() {}, info() {}, warn() {}, error() {}, debug() {} });
const restore = () => Object.assign(console, quiet);

// Examples that write files ('seo.db', './export') write them here, not into the repository.
const scratch = join(folder, 'cwd');
mkdirSync(scratch, { recursive: true });
process.chdir(scratch);

// The Redis examples read REDIS_URL, as a reader's deployment would: a throwaway redis-server.
const redis = await startRedis();
process.env.REDIS_URL = redis.url;
// The fleet examples read DATABASE_URL, as a reader's deployment would: a throwaway PostgreSQL.
const postgres = await startPostgres();
process.env.DATABASE_URL = postgres.url;

const results: RunResult[] = [];
for (const entry of manifest) {
  const result: RunResult = { id: entry.id, ok: true };
  current = result;
  let close: (() => Promise<void>) | undefined;
  try {
    const made = await makeFixtures();
    close = made.close;
    const module = (await import(pathToFileURL(join(folder, entry.name)).href)) as {
      run(f: typeof made.fixtures): Promise<unknown>;
    };
    silence();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      module.run(made.fixtures),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`did not settle within ${TIMEOUT_MS / 1000} s`)), TIMEOUT_MS);
      }),
    ]).finally(() => clearTimeout(timer));
  } catch (error) {
    Object.assign(result, { ok: false, error: describe(error) });
  } finally {
    restore();
    // Let a rejection the example left behind surface while it is still the current one.
    await new Promise((resolve) => setTimeout(resolve, 0));
    await close?.().catch(() => undefined);
  }
  results.push(result);
}
writeFileSync(resultsPath, JSON.stringify(results, null, 2));
await redis.stop();
await postgres.stop();
// Examples may leave timers (a `setTimeout(() => controller.abort(), 1_000)`): do not wait for them.
process.exit(0);
