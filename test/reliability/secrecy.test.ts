/**
 * The API key never shows anywhere but on the wire: not in an error's message, stack, cause chain,
 * `JSON.stringify` or `util.inspect` (hidden properties included), not in `util.inspect` or
 * `JSON.stringify` of the client or its namespaces, and not in anything a logger or a hook
 * receives (the Authorization header reaches them as `Bearer ***`). Random keys × every fault.
 */
import { inspect } from 'node:util';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { SeoVisibilityClient } from '../../src/index.js';
import { renderings } from './support/kit.js';
import {
  type Exchange,
  type Loopback,
  fullBudget,
  requestIdOf,
  sendData,
  sendError,
  sendJson,
  startLoopback,
} from './support/loopback.js';
import { describeError, settle } from './support/outcome.js';
import { useReport } from './support/report.js';
import { failureOf, runs, timeoutFor } from './support/runs.js';

const report = useReport('secrecy');
const PROJECT = '3f2b9c4e-8a1d-4c6e-9b7a-2d5e1f0a6c3b';

const FAULTS = [
  'ok',
  '500 (retried)',
  '401',
  '429 far reset',
  'HTML 502',
  'not the envelope',
  'bad data',
  'reset',
  'time-out',
  'abort',
  'invalid argument',
  'hook throws',
] as const;
type Fault = (typeof FAULTS)[number];

function behave(fault: Fault, { hit, req, res }: Exchange): void {
  switch (fault) {
    case '500 (retried)':
      return sendError(res, hit, 500, 'INTERNAL_ERROR');
    case '401':
      return sendError(res, hit, 401, 'UNAUTHORIZED');
    case '429 far reset':
      return sendError(res, hit, 429, 'RATE_LIMITED', {
        rate_limit: { limit: 10, remaining: 0, reset: Math.ceil(Date.now() / 1000) + 3600 },
      });
    case 'HTML 502':
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<html>Bad Gateway</html>');
      return;
    case 'not the envelope':
      return sendJson(res, 200, '[1,2,3]');
    case 'bad data':
      return sendData(res, hit, [{ id: 42 }]);
    case 'reset':
      req.socket.resetAndDestroy();
      return;
    case 'time-out':
    case 'abort':
      return; // never answers
    default:
      return sendJson(res, 200, {
        success: true,
        data: [],
        meta: { request_id: requestIdOf(hit), rate_limit: fullBudget() },
      });
  }
}

describe('the API key stays secret', { timeout: timeoutFor(30_000) }, () => {
  let server: Loopback;
  let fault: Fault = 'ok';
  beforeAll(async () => {
    server = await startLoopback((exchange) => behave(fault, exchange));
  });
  afterAll(() => server.close());

  test('random keys × every fault: the key is in no error, log line, hook payload or rendering of the client', async () => {
    const perFault = new Map<
      Fault,
      { cases: number; outcomes: Set<string>; leaks: string[]; sent: number; redacted: boolean }
    >();
    const keyArb = fc.stringMatching(/^[A-Za-z0-9_]{20,48}$/).map((random) => `sk_live_${random}`);
    const failure = await failureOf(
      fc.assert(
        fc.asyncProperty(fc.constantFrom(...FAULTS), keyArb, async (kind, key) => {
          fault = kind;
          server.hits.length = 0;
          const observed: unknown[] = [];
          const log = (...args: unknown[]) => observed.push(args);
          const client = new SeoVisibilityClient({
            apiKey: key,
            baseUrl: server.url,
            maxRetries: 1,
            maxRetryDelay: 1000,
            timeout: kind === 'time-out' || kind === 'abort' ? 100 : 10_000,
            retryBackoff: { initialDelay: 1, maxDelay: 2 },
            logger: { debug: log, warn: log },
            hooks: {
              onRequest: [
                (info) => observed.push(info),
                ...(kind === 'hook throws'
                  ? [
                      (info: unknown) => {
                        throw new Error(`hook failed on ${JSON.stringify(info)}`);
                      },
                    ]
                  : []),
              ],
              onResponse: [(info) => observed.push(info)],
              onRetry: [(info) => observed.push(info)],
            },
          });
          const controller = new AbortController();
          if (kind === 'abort') setTimeout(() => controller.abort(new Error('stop')), 20);
          const call =
            kind === 'invalid argument'
              ? client.rankings.list('../secret')
              : client.rankings.list(PROJECT, { limit: 5 }, { signal: controller.signal });
          const settled = await settle(call);
          const places: Array<[string, unknown]> = [
            ['error', settled.error],
            ['logger and hooks', observed],
            ['client', client],
            ['client.rankings', client.rankings],
            ['inspect(client)', inspect(client, { showHidden: true, depth: Infinity, getters: true })],
            [
              'inspect(client) without its custom inspect',
              inspect(client, { customInspect: false, showHidden: true, depth: Infinity, getters: true }),
            ],
            ['JSON.stringify(client)', JSON.stringify(client)],
            ['String(client)', String(client)],
          ];
          const leaks = places
            .filter(([, value]) => renderings(value).some((text) => text.includes(key)))
            .map(([where]) => where);
          const headersSeen = observed.flatMap((o) =>
            typeof o === 'object' && o !== null && 'headers' in o
              ? [(o as { headers: Record<string, string> }).headers.authorization]
              : [],
          );
          const entry = perFault.get(kind) ?? {
            cases: 0,
            outcomes: new Set<string>(),
            leaks: [],
            sent: 0,
            redacted: true,
          };
          entry.cases++;
          entry.outcomes.add(
            describeError(settled.error)
              .replace(/ req_lb_\d+/, '')
              .replace(/^UNTYPED undefined$/, 'ok'),
          );
          entry.leaks.push(...leaks);
          entry.sent += server.hits.filter((h) => h.headers.authorization === `Bearer ${key}`).length;
          entry.redacted &&= headersSeen.every((h) => h === 'Bearer ***');
          perFault.set(kind, entry);
          expect(leaks).toEqual([]);
          expect(headersSeen.every((h) => h === 'Bearer ***')).toBe(true);
        }),
        runs(120),
      ),
    );
    report.checkAll(
      FAULTS.filter((kind) => perFault.has(kind)).map((kind) => {
        const e = perFault.get(kind)!;
        const clean =
          'key in no error/stack/cause/JSON/inspect, log line or hook payload; Authorization shown as Bearer ***';
        return {
          area: 'Secrecy: API key',
          input: `${kind} (random keys; outcome ${[...e.outcomes].sort().join(' / ')})`,
          cases: e.cases,
          expected: clean,
          observed:
            e.leaks.length === 0 && e.redacted
              ? clean
              : `leaked in ${[...new Set(e.leaks)].join(', ')}${e.redacted ? '' : '; Authorization not redacted'}`,
          serverSaw: `${e.sent} requests carrying the key (the wire is the only place it goes)`,
        };
      }),
      failure,
    );
  });
});
