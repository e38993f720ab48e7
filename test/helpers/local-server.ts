/**
 * What the helpers that start a real server for the tests (startRedis, startPostgres) share: where
 * its program is, and a loopback port for it.
 */
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:net';

/** The full path of `command` as the shell finds it on the PATH, or undefined when it is not there. */
export function onPath(command: string): string | undefined {
  try {
    return execFileSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' }).trim() || undefined;
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
