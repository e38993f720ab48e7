/**
 * Fuzzed arguments against a recording loopback server: ids with `/`, `..`, `%2F`, unicode,
 * whitespace and lone surrogates; limits and offsets out of range; dates that are not dates;
 * header injection in the key and in custom headers. Each is either refused client-side with
 * `InvalidArgumentError` (and nothing is sent), or sent as exactly one request to the intended path.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { InvalidArgumentError, SeoVisibilityClient } from '../../src/index.js';
import { isUuid } from '../../src/internal/uuid.js';
import { type Hit, type Loopback, sendError, startLoopback } from './support/loopback.js';
import { describeError, settle } from './support/outcome.js';
import { useReport } from './support/report.js';
import { failureOf, runs, timeoutFor } from './support/runs.js';

const report = useReport('fuzz-arguments');
const AREA = 'Fuzz: arguments';
const PROJECT = '3f2b9c4e-8a1d-4c6e-9b7a-2d5e1f0a6c3b';
const KEY = 'sk_live_ARGUMENTSsecret42';
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Strings aimed at paths: traversal, encoded separators, unicode, whitespace, broken UTF-16. */
const nasty = fc.constantFrom(
  '',
  ' ',
  '.',
  '..',
  '...',
  '/',
  '../webhooks',
  '..%2Fwebhooks',
  '%2F',
  '%2e%2e',
  'a/b',
  'a\\b',
  'a?b=1',
  'a#b',
  'a b',
  'a\tb',
  'a\nb',
  ' x',
  'x ',
  'é',
  '日本',
  '\u200b',
  '\u00a0x',
  '\ud800',
  'x\udc00',
  '😀',
  'CON',
  'null',
  'undefined',
  '%00',
  '\u0000',
);
const uuidish = fc.oneof(
  fc.uuid(),
  fc.uuid().map((u) => u.toUpperCase()),
  fc.tuple(fc.uuid(), nasty).map(([u, s]) => u + s),
  fc.tuple(nasty, fc.uuid()).map(([s, u]) => s + u),
  fc.uuid().map((u) => u.replace(/-/g, '')),
  fc.uuid().map((u) => u.replace(/[0-9]/g, (d) => String.fromCharCode(0xff10 + Number(d)))),
  nasty,
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 10 }),
);

describe('fuzzed arguments', { timeout: timeoutFor(30_000) }, () => {
  let server: Loopback;
  beforeAll(async () => {
    server = await startLoopback(({ hit, res }) => sendError(res, hit, 404, 'NOT_FOUND'));
  });
  afterAll(() => server.close());

  const client = (extra: Record<string, unknown> = {}) =>
    new SeoVisibilityClient({ apiKey: KEY, baseUrl: server.url, maxRetries: 0, ...extra });

  /**
   * Runs a call and returns its outcome and what the server saw. Methods never throw synchronously;
   * a constructor does (`constructorThrows`), since bad client options fail at once.
   */
  async function probe(
    call: () => PromiseLike<unknown>,
    constructorThrows = false,
  ): Promise<{ error: unknown; hits: Hit[] }> {
    server.hits.length = 0;
    let pending: PromiseLike<unknown>;
    try {
      pending = call();
    } catch (error) {
      return { error: constructorThrows ? error : new Error(`threw synchronously: ${describeError(error)}`), hits: [] };
    }
    const settled = await settle(pending);
    return { error: settled.error, hits: [...server.hits] };
  }

  /** Tallies one input class and records its row. */
  function tally(input: string) {
    const t = { cases: 0, refused: 0, sent: 0, wrong: [] as string[] };
    return {
      add(verdict: string, refused: boolean) {
        t.cases++;
        if (refused) t.refused++;
        else t.sent++;
        if (verdict !== 'ok') t.wrong.push(verdict);
      },
      row(failure?: unknown) {
        report.check(
          {
            area: AREA,
            input,
            cases: t.cases,
            expected: 'InvalidArgumentError before sending, or one request to the intended path',
            observed:
              t.wrong.length === 0
                ? 'InvalidArgumentError before sending, or one request to the intended path'
                : t.wrong.slice(0, 2).join('; '),
            serverSaw: `${t.sent} requests, each to its intended path; ${t.refused} refused client-side, 0 requests to any other path`,
          },
          failure,
        );
      },
    };
  }

  /** 'ok' when refused with InvalidArgumentError naming `argument` and nothing sent, or sent once to `path`. */
  function verdictOf(result: { error: unknown; hits: Hit[] }, valid: boolean, argument: string, path: string): string {
    if (!valid) {
      if (!(result.error instanceof InvalidArgumentError) || result.error.argument !== argument)
        return `expected InvalidArgumentError(${argument}), got ${describeError(result.error)}`;
      return result.hits.length === 0 ? 'ok' : `refused but sent ${result.hits.map((h) => h.url).join(', ')}`;
    }
    if (result.hits.length !== 1)
      return `${result.hits.length} requests for a valid ${argument} (${describeError(result.error)})`;
    const sent = result.hits[0]!.url.split('?')[0];
    return sent === `/api/v1${path}` ? 'ok' : `sent to ${sent}, not /api/v1${path}`;
  }

  test('path ids (UUID parameters): refused unless a UUID, else sent to exactly that path', async () => {
    const t = tally(
      'UUID path parameters: traversal, %2F, unicode, whitespace, lone surrogates, fullwidth digits (7 methods)',
    );
    const methods: Array<
      [string, (c: SeoVisibilityClient, id: string) => PromiseLike<unknown>, (id: string) => string]
    > = [
      ['projectId', (c, id) => c.rankings.list(id, { limit: 5 }), (id) => `/projects/${id}/rankings/keywords`],
      ['promptId', (c, id) => c.prompts.get(PROJECT, id), (id) => `/projects/${PROJECT}/prompts/${id}`],
      [
        'keywordId',
        (c, id) => c.rankings.history(PROJECT, id),
        (id) => `/projects/${PROJECT}/rankings/keywords/${id}/history`,
      ],
      [
        'auditId',
        (c, id) => c.audits.issues(PROJECT, id, { limit: 5 }),
        (id) => `/projects/${PROJECT}/audits/${id}/issues`,
      ],
      ['contentId', (c, id) => c.content.get(PROJECT, id), (id) => `/projects/${PROJECT}/content/${id}`],
      ['webhookId', (c, id) => c.webhooks.get(id), (id) => `/webhooks/${id}`],
      ['webhookId', (c, id) => c.webhooks.delete(id), (id) => `/webhooks/${id}`],
    ];
    const failure = await failureOf(
      fc.assert(
        fc.asyncProperty(fc.nat(), uuidish, async (which, id) => {
          const [argument, call, path] = methods[which % methods.length]!;
          const verdict = verdictOf(await probe(() => call(client(), id)), isUuid(id), argument, path(id));
          t.add(verdict, !isUuid(id));
          expect(verdict).toBe('ok');
        }),
        runs(300),
      ),
    );
    t.row(failure);
  });

  test('report ids (free-form slugs): refused when empty, blank, "."/"..", or with spaces, controls or broken UTF-16; else one encoded segment', async () => {
    const t = tally(
      'report slug ids: traversal, %2F, unicode, whitespace, lone surrogates (reports.get, reports.delete)',
    );
    const slugArb = fc.oneof(
      nasty,
      fc.string({ maxLength: 30 }),
      fc.string({ unit: 'grapheme', maxLength: 12 }),
      fc.string({ unit: 'binary', maxLength: 8 }),
      fc.tuple(nasty, nasty, nasty).map((parts) => parts.join('')),
    );
    const failure = await failureOf(
      fc.assert(
        fc.asyncProperty(fc.boolean(), slugArb, async (remove, slug) => {
          const valid =
            slug.trim() !== '' &&
            !/[\s\u0000-\u001f\u007f]/.test(slug) &&
            slug !== '.' &&
            slug !== '..' &&
            !LONE_SURROGATE.test(slug);
          const result = await probe(() =>
            remove ? client().reports.delete(PROJECT, slug) : client().reports.get(PROJECT, slug),
          );
          let verdict = verdictOf(
            result,
            valid,
            'reportId',
            valid ? `/projects/${PROJECT}/reports/${encodeURIComponent(slug)}` : '',
          );
          // The server must see the slug back as one path segment, exactly.
          if (verdict === 'ok' && valid && decodeURIComponent(result.hits[0]!.path.split('/').pop()!) !== slug)
            verdict = `segment decodes to something else than ${JSON.stringify(slug)}`;
          t.add(verdict, !valid);
          expect(verdict).toBe('ok');
        }),
        runs(300),
      ),
    );
    t.row(failure);
  });

  test('limits and offsets out of range or not integers: refused; in range: sent as given', async () => {
    const t = tally(
      'limit and offset: negative, 0, over the maximum, fractions, NaN, ±Infinity, 2^53, strings, null, objects',
    );
    const numberish = fc.oneof(
      fc.integer({ min: -10, max: 1100 }),
      fc.double(),
      fc.constantFrom(NaN, Infinity, -Infinity, -0, 0, 1, 500, 501, 1000, 1001, 2 ** 53, 1e21, 0.5),
      fc.constantFrom('10', null, true, [], {}) as fc.Arbitrary<unknown>,
    );
    const failure = await failureOf(
      fc.assert(
        fc.asyncProperty(fc.boolean(), fc.boolean(), numberish, async (isLimit, keywords, value) => {
          const max = keywords ? 1000 : 500;
          const valid = isLimit
            ? Number.isInteger(value) && (value as number) >= 1 && (value as number) <= max
            : Number.isSafeInteger(value) && (value as number) >= 0;
          const params = { [isLimit ? 'limit' : 'offset']: value } as { limit?: number; offset?: number };
          const result = await probe(() =>
            keywords ? client().rankings.list(PROJECT, params) : client().projects.list(params),
          );
          let verdict = verdictOf(
            result,
            valid,
            isLimit ? 'limit' : 'offset',
            keywords ? `/projects/${PROJECT}/rankings/keywords` : '/projects',
          );
          if (verdict === 'ok' && valid) {
            const sent = new URLSearchParams(result.hits[0]!.url.split('?')[1]).get(isLimit ? 'limit' : 'offset');
            if (sent !== String(value)) verdict = `sent ${sent} for ${String(value)}`;
          }
          t.add(verdict, !valid);
          expect(verdict).toBe('ok');
        }),
        runs(300),
      ),
    );
    t.row(failure);
  });

  test('dates that are not dates: refused; real dates: sent', async () => {
    const t = tally(
      'date_from / date_to: impossible days (2026-02-30), bad months and hours, words, empty, numbers, invalid Date objects',
    );
    const dateArb = fc.oneof(
      fc.date({ noInvalidDate: false, min: new Date('1900-01-01'), max: new Date('2200-01-01') }),
      fc.constantFrom(
        '2026-02-30',
        '2026-02-29',
        '2024-02-29',
        '2026-04-31',
        '2026-13-01',
        '2026-00-10',
        '2026-11-21',
        '2026-11-21T10:00:00Z',
        '2026-11-21T10:00:00+01:00',
        '2026-11-21T25:00:00Z',
        '2026-11-21T23:60:00Z',
        'yesterday',
        '',
        ' 2026-11-21',
        '2026-11-21\n',
        '21/11/2026',
        'null',
      ),
      fc
        .tuple(fc.integer({ min: 1990, max: 2100 }), fc.integer({ min: 0, max: 13 }), fc.integer({ min: 0, max: 32 }))
        .map(([y, m, d]) => `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`),
      fc.string({ maxLength: 20 }),
      fc.integer() as fc.Arbitrary<unknown>,
    );
    const failure = await failureOf(
      fc.assert(
        fc.asyncProperty(fc.boolean(), dateArb, async (from, value) => {
          const valid =
            value instanceof Date ? !Number.isNaN(value.getTime()) : typeof value === 'string' && isRealDate(value);
          const argument = from ? 'date_from' : 'date_to';
          const result = await probe(() =>
            client().rankings.list(PROJECT, { [argument]: value } as { date_from?: string }),
          );
          let verdict = verdictOf(result, valid, argument, `/projects/${PROJECT}/rankings/keywords`);
          if (verdict === 'ok' && valid) {
            const sent = new URLSearchParams(result.hits[0]!.url.split('?')[1]).get(argument);
            if (sent !== (value instanceof Date ? value.toISOString() : value)) verdict = `sent ${sent}`;
          }
          t.add(verdict, !valid);
          expect(verdict).toBe('ok');
        }),
        runs(300),
      ),
    );
    t.row(failure);
  });

  test('request bodies JSON cannot write (BigInt, cycles, a throwing toJSON): refused before sending, never a network error', async () => {
    const t = tally(
      'request bodies with a BigInt, a cycle or a throwing toJSON, anywhere in the body (POST and PATCH)',
    );
    const poison = fc.constantFrom('bigint', 'cycle', 'toJSON throws');
    const failure = await failureOf(
      fc.assert(
        fc.asyncProperty(
          fc.nat(),
          poison,
          fc.array(fc.string({ minLength: 1, maxLength: 6 }), { maxLength: 3 }),
          async (which, kind, path) => {
            const bad: unknown =
              kind === 'bigint'
                ? 1n
                : kind === 'toJSON throws'
                  ? {
                      toJSON: () => {
                        throw new Error('no');
                      },
                    }
                  : undefined;
            const body: Record<string, unknown> = {
              websiteUrl: 'https://body.example',
              url: 'https://hooks.example/in',
              project_id: PROJECT,
              events: ['audit.completed'],
            };
            let node = body;
            for (const key of path) node = (node[`n_${key}`] = {}) as Record<string, unknown>;
            if (kind === 'cycle') node.self = body;
            else node.poison = bad;
            const calls = [
              () => client().projects.create(body as { websiteUrl: string }),
              () => client().webhooks.create(body as never),
              () => client().webhooks.update(PROJECT, body),
            ];
            const verdict = verdictOf(await probe(calls[which % calls.length]!), false, 'body', '');
            t.add(verdict, true);
            expect(verdict).toBe('ok');
          },
        ),
        runs(60),
      ),
    );
    t.row(failure);
  });

  test('header injection in the key or custom headers: refused before sending; valid headers sent, Authorization never overridden', async () => {
    const t = tally(
      'custom headers (client and per call): CR/LF, NUL, non-Latin-1, non-token names, Host/Content-Length/Transfer-Encoding, Authorization override',
    );
    const STACK = [
      'connection',
      'content-length',
      'expect',
      'host',
      'keep-alive',
      'proxy-connection',
      'te',
      'trailer',
      'transfer-encoding',
      'upgrade',
    ];
    const nameArb = fc.oneof(
      fc.constantFrom(
        'x-trace',
        'X-Trace',
        'Authorization',
        'authorization',
        'Host',
        'Content-Length',
        'transfer-encoding',
        'Expect',
        'Connection',
        'x a',
        'x\r\nEvil',
        'é',
        'x:y',
        '',
      ),
      fc.string({ maxLength: 10 }),
    );
    const valueArb = fc.oneof(
      fc.constantFrom(
        'ok',
        'a\r\nX-Evil: 1',
        'a\nb',
        'a\u0000b',
        'tab\tok',
        'café',
        '日本',
        '😀',
        ' padded ',
        '\u0085',
        'Bearer stolen',
      ),
      fc.string({ maxLength: 20 }),
      fc.string({ unit: 'binary', maxLength: 6 }),
    );
    const failure = await failureOf(
      fc.assert(
        fc.asyncProperty(fc.boolean(), nameArb, valueArb, async (perCall, name, value) => {
          const valid =
            /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name) &&
            !STACK.includes(name.toLowerCase()) &&
            !/[\u0000-\u0008\u000a-\u001f\u007f\u0100-\uffff]/.test(value);
          const headers = { [name]: value };
          const result = await probe(
            () => (perCall ? client().projects.list({}, { headers }) : client({ headers }).projects.list()),
            !perCall,
          );
          let verdict = verdictOf(result, valid, `headers['${name.replace(/[^\x20-\x7e]/g, '?')}']`, '/projects');
          if (verdict === 'ok' && valid) {
            const hit = result.hits[0]!;
            if (hit.headers.authorization !== `Bearer ${KEY}`)
              verdict = `Authorization sent as ${hit.headers.authorization}`;
            else if (
              name.toLowerCase() !== 'authorization' &&
              hit.headers[name.toLowerCase()] !== value.replace(/^[\t ]+|[\t ]+$/g, '')
            )
              verdict = `${name} sent as ${JSON.stringify(hit.headers[name.toLowerCase()])}`;
          }
          t.add(verdict, !valid);
          expect(verdict).toBe('ok');
        }),
        runs(300),
      ),
    );
    t.row(failure);

    const keys = tally('API key with CR/LF, spaces, NUL, non-ASCII, header syntax, or under 8 characters');
    const keyArb = fc.oneof(
      fc.constantFrom(
        'sk_live_a\r\nX-Evil: 1',
        'sk_live a',
        'sk_live_\u0000',
        'sk_live_日本',
        'sk_live_é',
        ' sk_live_a',
        'sk_live_a\t',
        'Bearer x',
        'sk_live_ok',
      ),
      fc.string({ minLength: 1, maxLength: 30 }),
      fc.string({ unit: 'binary', minLength: 1, maxLength: 8 }),
    );
    const keyFailure = await failureOf(
      fc.assert(
        fc.asyncProperty(keyArb, async (apiKey) => {
          // Printable ASCII, and at least 8 characters: a shorter key would make the redactor mask the API's own words.
          const valid = /^[\x21-\x7e]{8,}$/.test(apiKey);
          server.hits.length = 0;
          let verdict = 'ok';
          try {
            const made = new SeoVisibilityClient({ apiKey, baseUrl: server.url, maxRetries: 0 });
            if (!valid) verdict = 'accepted a key that cannot be sent';
            else {
              await settle(made.projects.list());
              if (server.hits.length !== 1 || server.hits[0]!.headers.authorization !== `Bearer ${apiKey}`)
                verdict = `sent ${server.hits.length} requests`;
            }
          } catch (error) {
            if (valid) verdict = `refused a valid key: ${describeError(error)}`;
            else if (!(error instanceof InvalidArgumentError) || error.argument !== 'apiKey')
              verdict = describeError(error);
            else if (apiKey.length > 3 && error.message.includes(apiKey)) verdict = 'message echoes the key';
            else if (server.hits.length !== 0) verdict = 'sent a request';
          }
          keys.add(verdict, !valid);
          expect(verdict).toBe('ok');
        }),
        runs(200),
      ),
    );
    keys.row(keyFailure);
  });
});

/** An independent reading of "a real ISO 8601 date": the shape, a real calendar day, a real time. */
function isRealDate(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/.exec(
    value,
  );
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const day = new Date(Date.UTC(y, mo - 1, d));
  if (day.getUTCFullYear() !== y || day.getUTCMonth() !== mo - 1 || day.getUTCDate() !== d) return false;
  return !Number.isNaN(Date.parse(value));
}
