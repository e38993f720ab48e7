/**
 * What the helpers that start a real server for the tests (startRedis, startPostgres) share: where
 * its program is, and a loopback port for it.
 */
import { execFileSync } from 'node:child_process';

export { freePort } from './free-port.js';

/** The full path of `command` as the shell finds it on the PATH, or undefined when it is not there. */
export function onPath(command: string): string | undefined {
  try {
    return execFileSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}
