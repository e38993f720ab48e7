import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';

/** A Redis for the tests: `REDIS_URL` when set (CI starts one), else a throwaway `redis-server`. */
export interface TestRedis {
  url: string;
  stop(): Promise<void>;
}

const INSTALL_HINT =
  'The shared rate limit tests need a real Redis. Install redis-server (Debian/Ubuntu: `sudo apt-get install redis-server`; ' +
  'macOS: `brew install redis`) so it is on the PATH, or set REDIS_URL=redis://127.0.0.1:<port> to a Redis you run.';

/**
 * Uses `REDIS_URL` if set; otherwise starts `redis-server` from the PATH on a free loopback port,
 * with persistence off, and stops it in `stop()`. Throws (never skips) when there is no Redis.
 */
export async function startRedis(): Promise<TestRedis> {
  const fromEnv = process.env.REDIS_URL;
  if (fromEnv) return { url: fromEnv, stop: async () => {} };
  const binary = findRedisServer();
  if (!binary) throw new Error(`redis-server was not found on the PATH and REDIS_URL is not set. ${INSTALL_HINT}`);
  const port = await freePort();
  const child = spawn(binary, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  const url = `redis://127.0.0.1:${port}`;
  try {
    await waitForPing(url, child);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return {
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        const timer = setTimeout(() => child.kill('SIGKILL'), 2_000);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}

function findRedisServer(): string | undefined {
  try {
    return execFileSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

/** A port the OS just handed out on 127.0.0.1 (free a moment ago). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
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
