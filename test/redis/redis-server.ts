import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { freePort, onPath } from '../helpers/local-server.js';

// Re-exported: the Redis, CLI, insights and sync tests take their free port from here.
export { freePort };

/** A Redis for the tests: `REDIS_URL` when set (CI starts one), else a throwaway `redis-server`. */
export interface TestRedis {
  url: string;
  stop(): Promise<void>;
}

const INSTALL_HINT =
  'The shared rate limit tests need a real Redis. Install redis-server (Debian/Ubuntu: `sudo apt-get install redis-server`; ' +
  'macOS: `brew install redis`) so it is on the PATH, or set REDIS_URL=redis://127.0.0.1:<port> to a Redis you run.';

/** How to start a test Redis. */
export interface StartRedisOptions {
  /**
   * Start a `redis-server` of this test's own even when `REDIS_URL` is set: for destructive tests
   * (FLUSHALL, restarts), which must never touch a shared Redis.
   */
  own?: boolean;
  /** Keep data across `restart()` (append-only file in a temp folder); off by default. */
  persistent?: boolean;
}

/** A `redis-server` this test started and may stop, flush and restart. */
export interface OwnRedis extends TestRedis {
  /** Stops the server and starts it again on the same port (and, if persistent, the same data). */
  restart(): Promise<void>;
}

/**
 * Uses `REDIS_URL` if set (unless `own`); otherwise starts `redis-server` from the PATH on a free
 * loopback port, with persistence off unless asked, and stops it in `stop()`. Throws (never skips)
 * when there is no Redis.
 */
export async function startRedis(): Promise<TestRedis>;
export async function startRedis(options: StartRedisOptions & { own: true }): Promise<OwnRedis>;
export async function startRedis(options: StartRedisOptions = {}): Promise<TestRedis | OwnRedis> {
  const fromEnv = process.env.REDIS_URL;
  if (fromEnv && !options.own) return { url: fromEnv, stop: async () => {} };
  const binary = onPath('redis-server');
  if (!binary) throw new Error(`redis-server was not found on the PATH and REDIS_URL is not set. ${INSTALL_HINT}`);
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'seo-visibility-redis-'));
  const persistence = options.persistent ? ['--appendonly', 'yes', '--appendfsync', 'always'] : ['--appendonly', 'no'];
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--dir', dir, ...persistence];
  const url = `redis://127.0.0.1:${port}`;
  let child = await launch(binary, args, url);
  const stopChild = () => stopProcess(child);
  return {
    url,
    stop: async () => {
      await stopChild();
      rmSync(dir, { recursive: true, force: true });
    },
    restart: async () => {
      await stopChild();
      child = await launch(binary, args, url);
    },
  };
}

async function launch(binary: string, args: string[], url: string): Promise<ChildProcess> {
  const child = spawn(binary, args, { stdio: 'ignore' });
  try {
    await waitForPing(url, child);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return child;
}

/** SIGTERM (Redis writes its append-only file and exits), SIGKILL after 2 s. */
function stopProcess(child: ChildProcess): Promise<void> {
  return new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const timer = setTimeout(() => child.kill('SIGKILL'), 2_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** Polls PING for up to 5 s (50 tries). */
async function waitForPing(url: string, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 50; i++) {
    if (child.exitCode !== null) throw new Error(`redis-server exited with code ${child.exitCode}. ${INSTALL_HINT}`);
    const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    client.on('error', () => {});
    try {
      await client.connect();
      await client.ping();
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    } finally {
      client.disconnect();
    }
  }
  throw new Error(`redis-server did not answer on ${url} within 5 s. ${INSTALL_HINT}`);
}
