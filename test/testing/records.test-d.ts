/**
 * Type-level tests of the simulator's wire records (`src/testing/records.ts`): each is derived from
 * the SDK's own response type, so a field is declared once (in the resource's zod schema). Nothing
 * here runs; the compiler is the assertion (`npm run typecheck`).
 */
import { describe, expectTypeOf, test } from 'vitest';
import type { Audit, AuditStatus, Pagination, Project, PromptDetail, RateLimit, ReferringDomain } from 'seo-visibility';
import type {
  AuditIssueRecord,
  AuditRecord,
  ContentItemRecord,
  KeywordRecord,
  ModelResponseRecord,
  PaginationMeta,
  ProjectRecord,
  PromptDetailRecord,
  RateLimitMeta,
  ReferringDomainRecord,
  SimAuditStatus,
  SimContentStatus,
  WebhookRecord,
} from 'seo-visibility/testing';

/** The declared fields of an SDK record, without the `[k: string]: unknown` of a loose object. */
type Declared<T> = keyof { [K in keyof T as string extends K ? never : K]: 0 };

describe('simulator records derive from the SDK schemas', () => {
  test("a record has exactly the SDK record's fields, plus the simulator's documented extras", () => {
    expectTypeOf<keyof ProjectRecord>().toEqualTypeOf<Declared<Project>>();
    expectTypeOf<keyof AuditRecord>().toEqualTypeOf<Declared<Audit> | 'max_crawl_pages'>();
    expectTypeOf<keyof PromptDetailRecord>().toEqualTypeOf<Declared<PromptDetail>>();
    expectTypeOf<keyof RateLimitMeta>().toEqualTypeOf<Declared<RateLimit>>();
    expectTypeOf<keyof PaginationMeta>().toEqualTypeOf<Declared<Pagination>>();
    expectTypeOf<keyof ReferringDomainRecord>().toEqualTypeOf<
      Declared<ReferringDomain> | 'backlinks' | 'dofollow' | 'first_seen'
    >();
  });

  test('open enums are closed to their documented values (the simulator serves no other)', () => {
    expectTypeOf<SimAuditStatus>().toEqualTypeOf<'pending' | 'crawling' | 'processing' | 'completed' | 'failed'>();
    expectTypeOf<SimContentStatus>().toEqualTypeOf<'Approved' | 'Published' | 'Needs Approval' | 'Revising'>();
    expectTypeOf<AuditRecord['status']>().toEqualTypeOf<SimAuditStatus>();
    expectTypeOf<ContentItemRecord['status']>().toEqualTypeOf<SimContentStatus>();
    expectTypeOf<ProjectRecord['status']>().toEqualTypeOf<'trial' | 'active' | 'past_due' | 'cancelled'>();
    expectTypeOf<WebhookRecord['events']>().toEqualTypeOf<
      Array<
        | 'content.created'
        | 'content.status_changed'
        | 'audit.started'
        | 'audit.completed'
        | 'keywords.updated'
        | 'prompts.updated'
      >
    >();
    // Every served value is one the SDK accepts.
    expectTypeOf<SimAuditStatus>().toMatchTypeOf<AuditStatus>();
  });

  test('a typo in a generator does not compile: no index signature survives', () => {
    const issue = {
      id: 'i',
      type: 't',
      severity: 'critical',
      title: 'T',
      description: 'D',
      affected_count: 1,
      status: 'failed',
      created_at: '2025-01-01T00:00:00Z',
    } as const;
    expectTypeOf(issue).toMatchTypeOf<AuditIssueRecord>();
    // @ts-expect-error `severty` is not a field of an audit issue
    const typo: AuditIssueRecord = { ...issue, severty: 'critical' };
    void typo;
  });

  test("nullable, optional and map fields keep the SDK's types; fields the simulator chooses to serve are present", () => {
    expectTypeOf<PromptDetailRecord['last_analyzed']>().toEqualTypeOf<string | null>();
    expectTypeOf<PromptDetailRecord['latest_responses']>().toEqualTypeOf<Record<string, ModelResponseRecord>>();
    expectTypeOf<KeywordRecord['id']>().toEqualTypeOf<string>();
    expectTypeOf<KeywordRecord['keyword_id']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<ReferringDomainRecord['domain']>().toEqualTypeOf<string>();
    expectTypeOf<ReferringDomainRecord['domain_rank']>().toEqualTypeOf<number>();
  });
});
