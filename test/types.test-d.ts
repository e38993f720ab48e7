/**
 * Type-level tests of the public surface (vitest typecheck mode): what a user of `seo-visibility`
 * sees in their editor. Nothing here runs; the compiler is the assertion.
 */
import { describe, expectTypeOf, test } from 'vitest';
import type {
  ApiError,
  ApiPromise,
  ApiResult,
  Audit,
  AuditCompletedEvent,
  AuditIssue,
  AuditStatus,
  AnchorText,
  BacklinkSummary,
  BacklinkTarget,
  ContentDetail,
  ContentItem,
  ContentPreferences,
  CreatedProject,
  Deleted,
  InvalidArgumentError,
  KeywordHistory,
  KeywordRanking,
  KnownWebhookEvent,
  LatestAudit,
  NotFoundError,
  Page,
  PagePromise,
  Project,
  Prompt,
  PromptDetail,
  PromptHistory,
  PromptResponse,
  RateLimitedError,
  Report,
  ResponseIssue,
  ResponseMeta,
  ResponseValidationError,
  SeoVisibilityClient,
  SeoVisibilityError,
  UnknownWebhookEvent,
  WebhookEvent,
  WebhookSubscription,
  WebhookTestResult,
} from '../src/index.js';
import { isKnownWebhookEvent, parseWebhookEvent } from '../src/webhooks/index.js';

declare const client: SeoVisibilityClient;
declare const id: string;

describe('client namespaces and method return types', () => {
  test('list methods return PagePromise of their record type', () => {
    expectTypeOf(client.projects.list()).toEqualTypeOf<PagePromise<Project>>();
    expectTypeOf(client.rankings.list(id)).toEqualTypeOf<PagePromise<KeywordRanking>>();
    expectTypeOf(client.prompts.list(id)).toEqualTypeOf<PagePromise<Prompt>>();
    expectTypeOf(client.prompts.history(id, id)).toEqualTypeOf<PagePromise<PromptResponse, PromptHistory>>();
    expectTypeOf(client.audits.list(id)).toEqualTypeOf<PagePromise<Audit>>();
    expectTypeOf(client.audits.issues(id, id)).toEqualTypeOf<PagePromise<AuditIssue>>();
    expectTypeOf(client.backlinks.anchors(id)).toEqualTypeOf<PagePromise<AnchorText>>();
    expectTypeOf(client.content.list(id)).toEqualTypeOf<PagePromise<ContentItem>>();
  });

  test('single-response methods return ApiPromise of their data', () => {
    expectTypeOf(client.projects.create({ websiteUrl: 'https://a.example' })).toEqualTypeOf<
      ApiPromise<CreatedProject>
    >();
    expectTypeOf(client.rankings.history(id, id)).toEqualTypeOf<ApiPromise<KeywordHistory>>();
    expectTypeOf(client.prompts.get(id, id)).toEqualTypeOf<ApiPromise<PromptDetail>>();
    expectTypeOf(client.audits.latest(id)).toEqualTypeOf<ApiPromise<LatestAudit>>();
    expectTypeOf(client.backlinks.list(id)).toEqualTypeOf<ApiPromise<BacklinkTarget[]>>();
    expectTypeOf(client.backlinks.summary(id)).toEqualTypeOf<ApiPromise<BacklinkSummary>>();
    expectTypeOf(client.content.get(id, id)).toEqualTypeOf<ApiPromise<ContentDetail>>();
    expectTypeOf(client.content.updatePreferences(id, { preferences: 'x' })).toEqualTypeOf<
      ApiPromise<ContentPreferences>
    >();
    expectTypeOf(client.reports.list(id)).toEqualTypeOf<ApiPromise<Report[]>>();
    expectTypeOf(client.reports.delete(id, 'slug')).toEqualTypeOf<ApiPromise<Deleted>>();
    expectTypeOf(
      client.webhooks.create({ url: 'https://a.example', project_id: id, events: ['audit.completed'] }),
    ).toEqualTypeOf<ApiPromise<WebhookSubscription>>();
    expectTypeOf(client.webhooks.test(id)).toEqualTypeOf<ApiPromise<WebhookTestResult>>();
  });

  test('awaiting gives the data; a page gives typed items; withResponse gives { data, meta, response }', async () => {
    expectTypeOf(await client.audits.latest(id)).toEqualTypeOf<LatestAudit>();
    const page = await client.rankings.list(id);
    expectTypeOf(page).toEqualTypeOf<Page<KeywordRanking>>();
    expectTypeOf(page.items).toEqualTypeOf<KeywordRanking[]>();
    expectTypeOf(page.getNextPage()).resolves.toEqualTypeOf<Page<KeywordRanking>>();
    expectTypeOf(page.hasNextPage()).toEqualTypeOf<boolean>();
    const history = await client.prompts.history(id, id);
    expectTypeOf(history.items).toEqualTypeOf<PromptResponse[]>();
    expectTypeOf(history.data).toEqualTypeOf<PromptHistory>();
    expectTypeOf(client.audits.latest(id).withResponse()).resolves.toEqualTypeOf<ApiResult<LatestAudit>>();
    expectTypeOf(client.projects.list().withResponse()).resolves.toEqualTypeOf<ApiResult<Page<Project>>>();
    expectTypeOf<ApiResult<LatestAudit>['meta']>().toEqualTypeOf<ResponseMeta>();
    expectTypeOf<ResponseMeta['request_id']>().toEqualTypeOf<string | undefined>();
    for await (const keyword of client.rankings.list(id)) expectTypeOf(keyword).toEqualTypeOf<KeywordRanking>();
    for await (const p of client.content.list(id).pages()) expectTypeOf(p.items).toEqualTypeOf<ContentItem[]>();
  });

  test('withResponse on every call gives { data, meta, response }; toArray requires its cap', () => {
    expectTypeOf(client.audits.latest(id).withResponse()).resolves.toEqualTypeOf<ApiResult<LatestAudit>>();
    expectTypeOf<ApiResult<LatestAudit>['response']>().toEqualTypeOf<Response>();
    expectTypeOf(client.projects.list().withResponse()).resolves.toEqualTypeOf<ApiResult<Page<Project>>>();
    expectTypeOf(client.rankings.list(id).toArray({ limit: 10 })).resolves.toEqualTypeOf<KeywordRanking[]>();
    expectTypeOf(client.prompts.history(id, id).toArray({ limit: 10 })).resolves.toEqualTypeOf<PromptResponse[]>();
    // @ts-expect-error: the cap is required
    void client.rankings.list(id).toArray();
    // @ts-expect-error: the cap is required
    void client.rankings.list(id).toArray({});
  });

  test('records keep wire names and open enums', () => {
    expectTypeOf<KeywordRanking['desktop_position']>().toEqualTypeOf<number>();
    expectTypeOf<Project['websiteUrl']>().toEqualTypeOf<string>();
    expectTypeOf<'completed'>().toExtend<AuditStatus>();
    expectTypeOf<'archived'>().toExtend<AuditStatus>();
    expectTypeOf<Audit['completed_at']>().toEqualTypeOf<string | null>();
    expectTypeOf<CreatedProject['plan']['active']>().toEqualTypeOf<boolean>();
    expectTypeOf<CreatedProject['name']>().toEqualTypeOf<string | undefined>();
  });
});

describe('params types reject wrong values', () => {
  test('enum and shape checks on list params', () => {
    client.rankings.list(id, { device: 'mobile', date_from: new Date(), date_to: '2026-06-30' });
    // @ts-expect-error: devices are all, desktop, mobile
    client.rankings.list(id, { device: 'tablet' });
    // @ts-expect-error: a date is a Date or a string
    client.rankings.list(id, { date_from: 1717200000000 });
    // @ts-expect-error: product modes are managed, software
    client.projects.list({ product_mode: 'hybrid' });
    // @ts-expect-error: not a documented audit status filter
    client.audits.list(id, { status: 'archived' });
    // @ts-expect-error: severities are critical, warning, notice
    client.audits.issues(id, id, { severity: 'info' });
    // @ts-expect-error: issue statuses are passed, failed
    client.audits.issues(id, id, { status: 'dismissed' });
    // @ts-expect-error: limit is a number
    client.prompts.list(id, { limit: '50' });
    // @ts-expect-error: prompts.list has no filters
    client.prompts.list(id, { device: 'mobile' });
    client.content.list(id, { status: 'Any Custom Status' });
  });

  test('required bodies', () => {
    // @ts-expect-error: websiteUrl is required
    client.projects.create({ name: 'Acme' });
    // @ts-expect-error: events is required
    client.webhooks.create({ url: 'https://a.example', project_id: id });
    // @ts-expect-error: events is a list
    client.webhooks.create({ url: 'https://a.example', project_id: id, events: 'audit.completed' });
    // @ts-expect-error: preferences is a string
    client.content.updatePreferences(id, { preferences: 3 });
    // @ts-expect-error: webhooks.list takes no project id
    client.webhooks.list(id);
  });
});

describe('error classes', () => {
  test('carry typed fields and literal names', () => {
    expectTypeOf<InvalidArgumentError['argument']>().toEqualTypeOf<string>();
    expectTypeOf<InvalidArgumentError['name']>().toEqualTypeOf<'InvalidArgumentError'>();
    expectTypeOf<ResponseValidationError['requestId']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<ResponseValidationError['status']>().toEqualTypeOf<number>();
    expectTypeOf<ResponseValidationError['issues']>().toEqualTypeOf<ReadonlyArray<ResponseIssue>>();
    expectTypeOf<ApiError['status']>().toEqualTypeOf<number>();
    expectTypeOf<ApiError['code']>().toEqualTypeOf<string>();
    expectTypeOf<ApiError['requestId']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<NotFoundError>().toExtend<ApiError>();
    expectTypeOf<NotFoundError['name']>().toEqualTypeOf<'NotFoundError'>();
    expectTypeOf<RateLimitedError['resetAt']>().toEqualTypeOf<Date | undefined>();
    expectTypeOf<RateLimitedError['retryAfterMs']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<InvalidArgumentError>().toExtend<SeoVisibilityError>();
    expectTypeOf<ResponseValidationError>().not.toExtend<ApiError>();
  });
});

describe('webhook events', () => {
  test('parseWebhookEvent returns the union; isKnownWebhookEvent then `event` narrow data', () => {
    const event = parseWebhookEvent('{}');
    expectTypeOf(event).toEqualTypeOf<WebhookEvent>();
    expectTypeOf<WebhookEvent>().toEqualTypeOf<KnownWebhookEvent | UnknownWebhookEvent>();
    if (isKnownWebhookEvent(event)) {
      expectTypeOf(event).toEqualTypeOf<KnownWebhookEvent>();
      if (event.event === 'audit.completed') {
        expectTypeOf(event).toEqualTypeOf<AuditCompletedEvent>();
        expectTypeOf(event.data.pages_crawled).toEqualTypeOf<number>();
      }
      if (event.event === 'keywords.updated') expectTypeOf(event.data.job_id).toEqualTypeOf<string>();
      if (event.event === 'audit.started') {
        expectTypeOf(event.data.max_crawl_pages).toEqualTypeOf<number>();
        // Loose objects: a field of another event is reachable, but only as unknown.
        expectTypeOf(event.data.pages_crawled).toEqualTypeOf<unknown>();
      }
    } else {
      expectTypeOf(event.event).toEqualTypeOf<string>();
      expectTypeOf(event.data).toEqualTypeOf<Record<string, unknown>>();
    }
    expectTypeOf<
      Extract<KnownWebhookEvent, { event: 'prompts.updated' }>['data']['best_model']
    >().toEqualTypeOf<string>();
  });
});
