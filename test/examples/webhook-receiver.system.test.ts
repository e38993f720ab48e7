/**
 * examples/webhook-receiver.ts is meant to be copied: run as a process (as a reader would, with
 * PORT and a secret), it must refuse what an attacker sends instead of answering 2xx, and survive a
 * body far over its limit.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, test } from 'vitest';
import { auditCompletedEventFixture } from '../fixtures/events.js';

const SECRET = 'example-secret_0123456789abcdefghijklmnopq';
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

/** Starts the example without a key (so it only listens), and reads its listening URL. */
async function startExample(): Promise<{ child: ChildProcess; origin: string; output: () => string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'examples/webhook-receiver.ts'], {
    env: {
      ...process.env,
      PORT: '0',
      WEBHOOK_SECRET: SECRET,
      SEO_VISIBILITY_API_KEY: '',
      SEO_VISIBILITY_BASE_URL: '',
      EXIT_AFTER_TEST: '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const origin = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the example did not listen within 20 s:\n${output}`)), 20_000);
    child.stdout!.on('data', () => {
      const match = /http:\/\/127\.0\.0\.1:\d+/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[0]);
      }
    });
    child.on('exit', (code) => reject(new Error(`the example exited (${code}):\n${output}`)));
  });
  return { child, origin, output: () => output };
}

describe('examples/webhook-receiver.ts, attacked', () => {
  test('a forged event on another path or with another method is refused, and nothing is handled', async () => {
    const { origin, output } = await startExample();
    const forged = JSON.stringify(auditCompletedEventFixture);
    const statuses = [];
    for (const [path, method] of [
      ['/', 'POST'],
      ['/anything', 'POST'],
      ['/hooks/seo', 'POST'],
      ['/hooks/seo', 'PUT'],
    ] as const) {
      statuses.push(
        (await fetch(`${origin}${path}`, { method, headers: { 'content-type': 'application/json' }, body: forged }))
          .status,
      );
    }
    expect(statuses.every((s) => s >= 400)).toBe(true);
    expect(output()).not.toMatch(/audit .* done/);
  }, 40_000);

  test('a 540 MB POST is refused and the process keeps serving', async () => {
    const { child, origin } = await startExample();
    const url = new URL(`${origin}/hooks/seo/${SECRET}`);
    const status = await new Promise<number | undefined>((resolve) => {
      const chunk = Buffer.alloc(1024 * 1024, 0x20);
      let sent = 0;
      let answered: number | undefined;
      const request = httpRequest({
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
      });
      request.on('response', (response) => {
        answered = response.statusCode;
        response.resume();
        request.destroy();
        resolve(answered);
      });
      request.on('error', () => resolve(answered));
      const pump = () => {
        while (answered === undefined && sent < 540) {
          sent++;
          if (!request.write(chunk)) return void request.once('drain', pump);
        }
        if (sent >= 540) request.end();
      };
      pump();
    });
    expect(status).toBe(413);
    expect(child.exitCode).toBe(null);
    const health = await fetch(`${origin}/hooks/seo/${SECRET}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(auditCompletedEventFixture),
    });
    expect(health.status).toBe(202);
  }, 60_000);
});
