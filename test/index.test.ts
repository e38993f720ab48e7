import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, expectTypeOf, test } from 'vitest';
import * as sdk from '../src/index.js';
import type { Audit, KeywordRanking, WebhookEvent } from '../src/index.js';
import type { Audit as AuditFromFile } from '../src/resources/audits.js';
import * as schemas from '../src/schemas.js';

const file = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/** The names an entry exports, as a consumer's type checker sees them: values, and types only. */
function exportsOf(entries: string[]): Array<{ values: string[]; types: string[] }> {
  const config = ts.getParsedCommandLineOfConfigFile(
    file('../tsconfig.json'),
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
  );
  const program = ts.createProgram(entries, config!.options);
  const checker = program.getTypeChecker();
  return entries.map((entry) => {
    const symbols = checker.getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(entry)!)!);
    const isValue = (s: ts.Symbol) =>
      ((s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s).flags & ts.SymbolFlags.Value) !== 0;
    // A type-only re-export (`export { type Audits }`) of a class is a type to the consumer.
    const typeOnly = (s: ts.Symbol) =>
      s.declarations?.some((d) => ts.isExportSpecifier(d) && (d.isTypeOnly || d.parent.parent.isTypeOnly)) ?? false;
    const values = symbols.filter((s) => isValue(s) && !typeOnly(s)).map((s) => s.name);
    const types = symbols.filter((s) => !isValue(s) || typeOnly(s)).map((s) => s.name);
    return { values: values.sort(), types: types.sort() };
  });
}

// The curated surface of the main entry. A name added to (or dropped from) src/index.ts fails
// here: a new public name is a decision, written down in this list, not a side effect of a file.
const MAIN_VALUES = [
  'AbortedError',
  'ApiError',
  'ApiPromise',
  'ConnectionError',
  'DOCUMENTED_WINDOWS',
  'ForbiddenError',
  'InternalServerError',
  'InvalidArgumentError',
  'KNOWN_EVENT_NAMES',
  'NotFoundError',
  'Page',
  'PagePromise',
  'RateLimitedError',
  'ResponseTooLargeError',
  'ResponseValidationError',
  'SeoVisibilityClient',
  'SeoVisibilityError',
  'TimeoutError',
  'UnauthorizedError',
  'VERSION',
  'ValidationError',
  'isAbortedError',
  'isApiError',
  'isConnectionError',
  'isForbiddenError',
  'isInternalServerError',
  'isInvalidArgumentError',
  'isNotFoundError',
  'isRateLimitedError',
  'isResponseTooLargeError',
  'isResponseValidationError',
  'isSeoVisibilityError',
  'isTimeoutError',
  'isUnauthorizedError',
  'isValidationError',
  'keywordIdOf',
];
const MAIN_TYPES = [
  'AcquireOptions',
  'AnchorListParams',
  'AnchorText',
  'AnySchema',
  'ApiErrorInit',
  'ApiResult',
  'Audit',
  'AuditCompletedEvent',
  'AuditIssue',
  'AuditIssueListParams',
  'AuditListParams',
  'AuditStartedEvent',
  'AuditStatus',
  'Audits',
  'BacklinkHistory',
  'BacklinkHistoryEntry',
  'BacklinkSummary',
  'BacklinkTarget',
  'Backlinks',
  'Citation',
  'ClientHooks',
  'ClientOptions',
  'ClientOverrides',
  'ConnectionErrorInit',
  'Content',
  'ContentCreatedEvent',
  'ContentDetail',
  'ContentItem',
  'ContentListParams',
  'ContentPreferences',
  'ContentPreferencesUpdateParams',
  'ContentStatus',
  'ContentStatusChangedEvent',
  'CreatedProject',
  'CustomRequest',
  'CustomResult',
  'DateParam',
  'Deleted',
  'ErrorInfo',
  'Hook',
  'IssueSeverity',
  'IssueStatus',
  'IterateOptions',
  'IterationProgress',
  'KeywordHistory',
  'KeywordHistoryEntry',
  'KeywordRanking',
  'KeywordsUpdatedEvent',
  'KnownWebhookEvent',
  'KnownWebhookEventName',
  'LatestAudit',
  'ListChange',
  'LogLevel',
  'Logger',
  'LoggerOption',
  'ModelResponse',
  'PageParams',
  'Pagination',
  'Permit',
  'ProductMode',
  'Project',
  'ProjectCreateParams',
  'ProjectListParams',
  'ProjectStatus',
  'Projects',
  'Prompt',
  'PromptDetail',
  'PromptHistory',
  'PromptHistoryParams',
  'PromptListParams',
  'PromptResponse',
  'Prompts',
  'PromptsUpdatedEvent',
  'RankingHistoryParams',
  'RankingListParams',
  'Rankings',
  'RateGate',
  'RateGateContext',
  'RateGateFactory',
  'RateLimit',
  'RateLimitOptions',
  'RateLimitedInit',
  'Refusal',
  'RateWindow',
  'ReferringDomain',
  'Report',
  'ReportCreateParams',
  'Reports',
  'RequestInfo',
  'RequestOptions',
  'ResponseInfo',
  'ResponseTooLargeInit',
  'ResponseIssue',
  'ResponseMeta',
  'ResponseSchema',
  'ResponseValidationInit',
  'RetryBackoffOptions',
  'RetryInfo',
  'ToArrayOptions',
  'UnknownWebhookEvent',
  'WebhookCreateParams',
  'WebhookEvent',
  'WebhookEventName',
  'WebhookSubscription',
  'WebhookTestEvent',
  'WebhookTestResult',
  'WebhookUpdateParams',
  'Webhooks',
];
// seo-visibility/schemas: every response schema, and nothing else.
const SCHEMAS = [
  'AnchorTextSchema',
  'AuditCompletedEventSchema',
  'AuditIssueSchema',
  'AuditSchema',
  'AuditStartedEventSchema',
  'AuditStatusSchema',
  'BacklinkHistoryEntrySchema',
  'BacklinkHistorySchema',
  'BacklinkHistorySummarySchema',
  'BacklinkSummarySchema',
  'BacklinkTargetSchema',
  'CitationSchema',
  'ContentCreatedEventSchema',
  'ContentDetailSchema',
  'ContentItemSchema',
  'ContentMetaDataSchema',
  'ContentPreferencesSchema',
  'ContentStatusChangedEventSchema',
  'ContentStatusSchema',
  'CreatedProjectPlanSchema',
  'CreatedProjectSchema',
  'DeletedSchema',
  'IssueSeveritySchema',
  'IssueStatusSchema',
  'IssuesSummarySchema',
  'KeywordHistoryEntrySchema',
  'KeywordHistorySchema',
  'KeywordHistorySummarySchema',
  'KeywordRankingSchema',
  'KeywordsUpdatedEventSchema',
  'KnownWebhookEventSchema',
  'LatestAuditSchema',
  'ModelResponseSchema',
  'ProductModeSchema',
  'ProjectSchema',
  'ProjectStatusSchema',
  'PromptDetailSchema',
  'PromptHistorySchema',
  'PromptResponseSchema',
  'PromptSchema',
  'PromptsUpdatedEventSchema',
  'ReferringDomainSchema',
  'ReportSchema',
  'UnknownWebhookEventSchema',
  'WebhookEventNameSchema',
  'WebhookEventSchema',
  'WebhookSubscriptionSchema',
  'WebhookTestEventSchema',
  'WebhookTestResultSchema',
];

describe('src/index: a curated surface', () => {
  test('exports exactly the listed names, at run time and as types', () => {
    const [main, schemaEntry, testing] = exportsOf([
      file('../src/index.ts'),
      file('../src/schemas.ts'),
      file('../src/testing/index.ts'),
    ]);
    expect(main!.values).toEqual([...MAIN_VALUES].sort());
    expect(main!.types).toEqual([...MAIN_TYPES].sort());
    expect(Object.keys(sdk).sort()).toEqual([...MAIN_VALUES].sort());
    expect(schemaEntry!.values).toEqual([...SCHEMAS].sort());
    expect(schemaEntry!.types).toEqual([]);
    expect(Object.keys(schemas).sort()).toEqual([...SCHEMAS].sort());
    // seo-visibility and seo-visibility/testing never export two different things under one name.
    const mainNames = new Set([...main!.values, ...main!.types]);
    expect([...testing!.values, ...testing!.types].filter((name) => mainNames.has(name))).toEqual([]);
  }, 30_000);

  test('no zod schema and no alias in the main entry', () => {
    expect(Object.keys(sdk).filter((name) => name.endsWith('Schema'))).toEqual([]);
    expect(MAIN_TYPES.filter((name) => name.endsWith('Schema'))).toEqual(['AnySchema', 'ResponseSchema']);
    // The aliases removed in issue 24 (the lead's CHANGELOG names them): one name per thing.
    expect('withMeta' in sdk.ApiPromise.prototype).toBe(false);
    expect('withMeta' in sdk.PagePromise.prototype).toBe(false);
  });

  test('the schemas entry parses what the main entry types', () => {
    expect(schemas.AuditSchema.safeParse({}).success).toBe(false);
    expectTypeOf<ReturnType<typeof schemas.KeywordRankingSchema.parse>>().toEqualTypeOf<KeywordRanking>();
  });

  test('re-exports the types', () => {
    expectTypeOf<Audit>().toEqualTypeOf<AuditFromFile>();
    expectTypeOf(sdk.keywordIdOf).parameter(0).toEqualTypeOf<KeywordRanking>();
  });
});

// seo-visibility/webhooks: the receiver, its secret URL and its dedupe stores, and the parsing of a
// delivery (moved out of the main entry for its size: a browser app does not receive webhooks).
const WEBHOOKS_VALUES = [
  'createWebhookReceiver',
  'ensureWebhooks',
  'generateWebhookSecret',
  'isKnownWebhookEvent',
  'memoryDedupeStore',
  'parseWebhookEvent',
  'postgresDedupeStore',
  'webhookEventKey',
  'webhookUrl',
];
const WEBHOOKS_TYPES = [
  'EnsureWebhookStep',
  'EnsureWebhooksOptions',
  'KnownWebhookEventType',
  'MemoryDedupeStoreOptions',
  'NodeRequest',
  'NodeResponse',
  'PostgresDedupeStoreOptions',
  'WaitUntilContext',
  'WebhookDedupeStore',
  'WebhookHandler',
  'WebhookPostgresPool',
  'WebhookReceiver',
  'WebhookReceiverOptions',
  'WebhookRetryOptions',
];

describe('src/webhooks: a curated surface', () => {
  test('exports exactly the listed names, none of them also a main-entry name', async () => {
    const [main, webhooks] = exportsOf([file('../src/index.ts'), file('../src/webhooks/index.ts')]);
    expect(webhooks!.values).toEqual([...WEBHOOKS_VALUES].sort());
    expect(webhooks!.types).toEqual([...WEBHOOKS_TYPES].sort());
    expect(Object.keys(await import('../src/webhooks/index.js')).sort()).toEqual([...WEBHOOKS_VALUES].sort());
    const mainNames = new Set([...main!.values, ...main!.types]);
    expect([...webhooks!.values, ...webhooks!.types].filter((name) => mainNames.has(name))).toEqual([]);
  }, 30_000);

  test("parses a delivery into the main entry's event types", async () => {
    const webhooks = await import('../src/webhooks/index.js');
    expectTypeOf(webhooks.parseWebhookEvent).returns.toEqualTypeOf<WebhookEvent>();
    expectTypeOf(webhooks.isKnownWebhookEvent).parameter(0).toEqualTypeOf<WebhookEvent>();
  });
});

describe('src/sync: the missed-event check (issue 25)', () => {
  test('exports MISSED_EVENT_GRACE_MS and MissedEvent on purpose; the event scope stays internal', () => {
    const [sync] = exportsOf([file('../src/sync/index.ts')]);
    expect(sync!.values).toContain('MISSED_EVENT_GRACE_MS');
    expect(sync!.types).toContain('MissedEvent');
    for (const internal of ['runScopedSync', 'RunScope', 'MissedEventWatch', 'recordEvents'])
      expect([...sync!.values, ...sync!.types]).not.toContain(internal);
  }, 30_000);
});

// seo-visibility/insights: the analytics views as a store extension (insights owns its views; a
// seo-visibility/sync store makes tables only).
describe('src/insights: a curated surface', () => {
  test('exports exactly insightViews, not a main-entry name', async () => {
    const [main, insights] = exportsOf([file('../src/index.ts'), file('../src/insights/index.ts')]);
    expect(insights!.values).toEqual(['insightViews']);
    expect(insights!.types).toEqual([]);
    expect(Object.keys(await import('../src/insights/index.js')).sort()).toEqual(['insightViews']);
    const mainNames = new Set([...main!.values, ...main!.types]);
    expect(insights!.values.filter((name) => mainNames.has(name))).toEqual([]);
  }, 30_000);
});
