/**
 * Fuzzed responses over loopback HTTP: real simulator responses for every read endpoint, damaged
 * around their schema (wrong types, missing and extra fields, nulls, huge strings, deep nesting),
 * and wholly arbitrary bodies and statuses. The SDK must return validated data or throw
 * `ResponseValidationError`, and agree with zod's own verdict on the served data (which also
 * checks the SDK's fast validation path against zod); arbitrary bodies end in a typed error.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import * as z from 'zod/mini';
import { ResponseValidationError, SeoVisibilityClient, SeoVisibilityError } from '../../src/index.js';
import {
  AnchorTextSchema,
  BacklinkHistorySchema,
  BacklinkSummarySchema,
  BacklinkTargetSchema,
  ReferringDomainSchema,
} from '../../src/resources/backlinks.js';
import { AuditIssueSchema, AuditSchema, LatestAuditSchema } from '../../src/resources/audits.js';
import { ContentDetailSchema, ContentItemSchema, ContentPreferencesSchema } from '../../src/resources/content.js';
import { ProjectSchema } from '../../src/resources/projects.js';
import { PromptDetailSchema, PromptHistorySchema, PromptSchema } from '../../src/resources/prompts.js';
import { KeywordHistorySchema, KeywordRankingSchema } from '../../src/resources/rankings.js';
import { ReportSchema } from '../../src/resources/reports.js';
import { WebhookSubscriptionSchema } from '../../src/resources/webhooks/index.js';
import { type Simulator, createSimulator } from '../../src/testing/index.js';
import { type Loopback, sendJson, startLoopback } from './support/loopback.js';
import { MUTATION_KINDS, type MutationKind, mutateEnvelope, mutationArb } from './support/mutations.js';
import { describeError, settle } from './support/outcome.js';
import { useReport } from './support/report.js';
import { failureOf, runs, timeoutFor } from './support/runs.js';

const report = useReport('fuzz-responses');
const AREA = 'Fuzz: responses';

interface Endpoint {
  name: string;
  schema: z.ZodMiniType;
  /** The call; list methods resolve to a Page, whose `data` is the validated body. */
  call: (client: SeoVisibilityClient) => PromiseLike<unknown>;
}

describe('fuzzed responses', { timeout: timeoutFor(30_000) }, () => {
  let sim: Simulator;
  let server: Loopback;
  let endpoints: Endpoint[];
  /** How the next response is made from the simulator's real one. */
  let respond: (status: number, body: { data?: unknown; meta?: unknown }) => { status: number; text: string } = (
    status,
    body,
  ) => ({ status, text: JSON.stringify(body) });
  let served = { status: 0, text: '' };

  beforeAll(async () => {
    sim = createSimulator({ seed: 41, rateLimit: false, keywordsPerProject: 60 });
    const project =
      sim.data.listedProjects.find(
        (p) =>
          sim.data.prompts(p.id).length > 0 &&
          sim.data.content(p.id).length > 0 &&
          sim.data.audits(p.id).length > 0 &&
          sim.data.reports(p.id).length > 0,
      ) ?? sim.data.listedProjects[0]!;
    const p = project.id;
    const prompt = sim.data.prompts(p)[0]!.id;
    const audit = sim.data.audits(p)[0]!.id;
    const content = sim.data.content(p)[0]!.id;
    const reportId = sim.data.reports(p)[0]?.id ?? 'missing';
    const webhook = sim.data.webhooks()[0]?.id ?? '3f2b9c4e-8a1d-4c6e-9b7a-2d5e1f0a6c3b';
    const keyword = sim.data.keywords(p).idOf(0);
    const list = <T>(s: z.ZodMiniType<T>) => z.array(s);
    const page = (pending: PromiseLike<{ data: unknown }>) => Promise.resolve(pending).then((pg) => pg.data);
    endpoints = [
      { name: 'projects.list', schema: list(ProjectSchema), call: (c) => page(c.projects.list({ limit: 5 })) },
      {
        name: 'rankings.list',
        schema: list(KeywordRankingSchema),
        call: (c) => page(c.rankings.list(p, { limit: 5 })),
      },
      {
        name: 'rankings.history',
        schema: KeywordHistorySchema,
        call: (c) => c.rankings.history(p, keyword, { date_from: '2026-11-01' }),
      },
      { name: 'prompts.list', schema: list(PromptSchema), call: (c) => page(c.prompts.list(p, { limit: 5 })) },
      { name: 'prompts.get', schema: PromptDetailSchema, call: (c) => c.prompts.get(p, prompt) },
      {
        name: 'prompts.history',
        schema: PromptHistorySchema,
        call: (c) => page(c.prompts.history(p, prompt, { limit: 3 })),
      },
      { name: 'audits.list', schema: list(AuditSchema), call: (c) => page(c.audits.list(p, { limit: 5 })) },
      { name: 'audits.latest', schema: LatestAuditSchema, call: (c) => c.audits.latest(p) },
      {
        name: 'audits.issues',
        schema: list(AuditIssueSchema),
        call: (c) => page(c.audits.issues(p, audit, { limit: 5 })),
      },
      { name: 'backlinks.list', schema: list(BacklinkTargetSchema), call: (c) => c.backlinks.list(p) },
      { name: 'backlinks.summary', schema: BacklinkSummarySchema, call: (c) => c.backlinks.summary(p) },
      { name: 'backlinks.history', schema: BacklinkHistorySchema, call: (c) => c.backlinks.history(p) },
      {
        name: 'backlinks.anchors',
        schema: list(AnchorTextSchema),
        call: (c) => page(c.backlinks.anchors(p, { limit: 5 })),
      },
      { name: 'backlinks.domains', schema: list(ReferringDomainSchema), call: (c) => c.backlinks.domains(p) },
      { name: 'content.list', schema: list(ContentItemSchema), call: (c) => page(c.content.list(p, { limit: 5 })) },
      { name: 'content.get', schema: ContentDetailSchema, call: (c) => c.content.get(p, content) },
      { name: 'content.getPreferences', schema: ContentPreferencesSchema, call: (c) => c.content.getPreferences(p) },
      { name: 'reports.list', schema: list(ReportSchema), call: (c) => c.reports.list(p) },
      { name: 'reports.get', schema: ReportSchema, call: (c) => c.reports.get(p, reportId) },
      { name: 'webhooks.list', schema: list(WebhookSubscriptionSchema), call: (c) => c.webhooks.list() },
      { name: 'webhooks.get', schema: WebhookSubscriptionSchema, call: (c) => c.webhooks.get(webhook) },
    ];
    server = await startLoopback(async ({ hit, res }) => {
      const query = hit.url.includes('?') ? hit.url.slice(hit.url.indexOf('?')) : '';
      const real = await sim.handle(
        new Request(`http://localhost/api/v1${hit.path}${query}`, {
          headers: { authorization: `Bearer ${sim.keys.readWrite}` },
        }),
      );
      served = respond(real.status, (await real.json()) as { data?: unknown; meta?: unknown });
      sendJson(res, served.status, served.text);
    });
  });
  afterAll(() => server.close());

  const client = () =>
    new SeoVisibilityClient({
      apiKey: sim.keys.readWrite,
      baseUrl: server.url,
      maxRetries: 0,
      maxRetryDelay: 0,
      maxQueueWait: 0,
      timeout: 20_000,
    });

  test('sanity: every endpoint answers valid data unchanged', async () => {
    respond = (status, body) => ({ status, text: JSON.stringify(body) });
    const outcomes = await Promise.all(
      endpoints.map(async (e) => `${e.name}: ${describeSettledValue(await settle(e.call(client())))}`),
    );
    expect(outcomes).toEqual(endpoints.map((e) => `${e.name}: ok`));
  });

  test('damaged data: validated data or ResponseValidationError, exactly as zod decides', async () => {
    const tally = new Map<MutationKind, { cases: number; ok: number; rejected: number; wrong: string[] }>(
      MUTATION_KINDS.map((k) => [k, { cases: 0, ok: 0, rejected: 0, wrong: [] }]),
    );
    const endpointArb = fc.integer({ min: 0, max: 1_000_000 }).map((i) => i % endpoints.length);
    const failure = await failureOf(
      fc.assert(
        fc.asyncProperty(
          endpointArb,
          fc.array(mutationArb, { minLength: 1, maxLength: 3 }),
          async (index, mutations) => {
            const endpoint = endpoints[index]!;
            let kinds: MutationKind[] = [];
            let deep = false;
            let topLevel = false;
            respond = (status, body) => {
              const mutated = mutateEnvelope(body.data, body.meta, mutations);
              kinds = mutated.kinds;
              deep = mutated.deep;
              topLevel = mutated.extraOnlyTopLevel;
              return { status, text: mutated.text };
            };
            const settled = await settle(endpoint.call(client()));
            let verdict = judge(endpoint, served.text, settled, !deep);
            // Forward compatibility: extra fields on a record alone never fail a call.
            if (
              verdict === 'ok' &&
              topLevel &&
              kinds.length > 0 &&
              kinds.every((k) => k === 'extra field') &&
              settled.error !== undefined
            )
              verdict = `extra fields rejected: ${describeError(settled.error)}`;
            for (const kind of new Set(kinds)) {
              const t = tally.get(kind)!;
              t.cases++;
              if (settled.error === undefined) t.ok++;
              else t.rejected++;
              if (verdict !== 'ok') t.wrong.push(`${endpoint.name}: ${verdict}`);
            }
            expect(verdict).toBe('ok');
          },
        ),
        runs(300),
      ),
    );
    report.checkAll(
      MUTATION_KINDS.map((kind) => {
        const t = tally.get(kind)!;
        return {
          area: AREA,
          input: `${kind} in the data of a real response (21 read endpoints)`,
          cases: t.cases,
          expected: 'validated data or ResponseValidationError 200, as zod decides on the served data',
          observed:
            t.wrong.length === 0
              ? 'validated data or ResponseValidationError 200, as zod decides on the served data'
              : t.wrong.slice(0, 2).join('; '),
          serverSaw: `${t.cases} requests; SDK returned data ${t.ok} times, ResponseValidationError ${t.rejected} times`,
        };
      }),
      failure,
    );
  });

  test('fuzzed meta (any JSON) with valid data: the data is returned', async () => {
    let cases = 0;
    const wrong: string[] = [];
    const failure = await failureOf(
      fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 0, max: 1_000_000 }),
          fc.oneof(fc.jsonValue({ maxDepth: 3 }), metaArb),
          async (index, meta) => {
            const endpoint = endpoints[index % endpoints.length]!;
            respond = (status, body) => ({ status, text: JSON.stringify({ success: true, data: body.data, meta }) });
            const outcome = describeSettledValue(await settle(endpoint.call(client())));
            cases++;
            if (outcome !== 'ok') wrong.push(`${endpoint.name}: ${outcome}`);
            expect(outcome).toBe('ok');
          },
        ),
        runs(100),
      ),
    );
    report.check(
      {
        area: AREA,
        input: 'meta replaced by any JSON value, or rate_limit/pagination/request_id of random types',
        cases,
        expected: 'ok (data returned)',
        observed: wrong.length === 0 ? 'ok (data returned)' : wrong.slice(0, 2).join('; '),
        serverSaw: `${cases} requests`,
      },
      failure,
    );
  });

  test('arbitrary bodies and statuses: ok or a typed error carrying the status, never anything else', async () => {
    const statuses = [200, 201, 400, 401, 403, 404, 409, 422, 429, 500, 502, 503, 504];
    const bodyArb = fc.oneof(
      fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
      fc.string({ maxLength: 200 }),
      fc
        .record(
          {
            success: fc.oneof(fc.boolean(), fc.jsonValue({ maxDepth: 1 })),
            data: fc.jsonValue({ maxDepth: 3 }),
            error: fc.oneof(
              fc.record({
                code: fc.oneof(fc.string(), fc.jsonValue({ maxDepth: 1 })),
                message: fc.jsonValue({ maxDepth: 1 }),
              }),
              fc.jsonValue({ maxDepth: 2 }),
            ),
            meta: fc.oneof(metaArb, fc.jsonValue({ maxDepth: 2 })),
          },
          { requiredKeys: [] },
        )
        .map((v) => JSON.stringify(v)),
    );
    let cases = 0;
    const classes = new Map<string, number>();
    const wrong: string[] = [];
    const failure = await failureOf(
      fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 0, max: 1_000_000 }),
          fc.constantFrom(...statuses),
          bodyArb,
          async (index, status, text) => {
            const endpoint = endpoints[index % endpoints.length]!;
            respond = () => ({ status, text });
            const settled = await settle(endpoint.call(client()));
            cases++;
            const name = settled.error === undefined ? 'ok' : (settled.error as Error).name;
            classes.set(name, (classes.get(name) ?? 0) + 1);
            const typed =
              settled.error === undefined
                ? status < 400
                : settled.error instanceof SeoVisibilityError &&
                  (settled.error as { status?: number }).status === status;
            if (!typed) wrong.push(`${endpoint.name} ${status} ${text.slice(0, 60)}: ${describeError(settled.error)}`);
            expect(typed ? 'ok or typed error with the status' : describeError(settled.error)).toBe(
              'ok or typed error with the status',
            );
          },
        ),
        runs(300),
      ),
    );
    report.check(
      {
        area: AREA,
        input: `arbitrary body (any JSON, any text, envelope-like records) with status ${statuses.join('/')}`,
        cases,
        expected: 'ok (2xx only) or an SDK error carrying the status',
        observed:
          wrong.length === 0 ? 'ok (2xx only) or an SDK error carrying the status' : wrong.slice(0, 2).join('; '),
        serverSaw: `${cases} requests; outcomes: ${[...classes]
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([k, n]) => `${k} ×${n}`)
          .join(', ')}`,
      },
      failure,
    );
  });
});

/**
 * JSON with sorted keys, for an order-free comparison. An own `__proto__` key is left out: zod
 * drops it when it copies an object, and this compares against zod's parse of JSON.parse's output.
 */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const keys = Object.keys(value)
      .filter((k) => k !== '__proto__')
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'undefined';
}

/** `meta` of random shape around the documented one. */
const metaArb = fc.record(
  {
    request_id: fc.oneof(fc.string(), fc.integer(), fc.constant(null)),
    rate_limit: fc.oneof(
      fc.constant(null),
      fc.jsonValue({ maxDepth: 1 }),
      fc.record(
        {
          limit: fc.oneof(fc.integer(), fc.double(), fc.string()),
          remaining: fc.oneof(fc.integer({ min: -5, max: 1000 }), fc.double(), fc.string()),
          reset: fc.oneof(
            fc.integer({ min: -5, max: 2_000_000_000 }),
            fc.constant(Math.floor(Date.now() / 1000) - 5),
            fc.string(),
          ),
        },
        { requiredKeys: [] },
      ),
    ),
    pagination: fc.oneof(
      fc.constant(null),
      fc.jsonValue({ maxDepth: 1 }),
      fc.record(
        {
          total: fc.oneof(fc.integer(), fc.string()),
          limit: fc.integer(),
          offset: fc.integer(),
          has_more: fc.oneof(fc.boolean(), fc.string()),
        },
        { requiredKeys: [] },
      ),
    ),
  },
  { requiredKeys: [] },
);

function describeSettledValue(settled: { value?: unknown; error?: unknown }): string {
  return settled.error === undefined ? 'ok' : describeError(settled.error);
}

/**
 * 'ok' when the SDK agrees with zod on the served data: zod accepts → the SDK returns what zod
 * returns; zod rejects (or there is no `data`) → ResponseValidationError 200 with its issues.
 */
function judge(
  endpoint: Endpoint,
  text: string,
  settled: { value?: unknown; error?: unknown },
  compareData: boolean,
): string {
  const body = JSON.parse(text) as { data?: unknown };
  const zod = 'data' in body ? endpoint.schema.safeParse(body.data) : { success: false as const };
  if (zod.success) {
    if (settled.error !== undefined) return `zod accepts, SDK threw ${describeError(settled.error)}`;
    // 10,000-level nesting is not walked here (it would overflow this comparison's own stack).
    return !compareData || canonical(settled.value) === canonical(zod.data)
      ? 'ok'
      : `SDK data differs from zod's: ${canonical(settled.value).slice(0, 200)} vs ${canonical(zod.data).slice(0, 200)}`;
  }
  if (!(settled.error instanceof ResponseValidationError))
    return `zod rejects, SDK gave ${settled.error === undefined ? 'data' : describeError(settled.error)}`;
  return settled.error.status === 200 ? 'ok' : `status ${settled.error.status}`;
}
