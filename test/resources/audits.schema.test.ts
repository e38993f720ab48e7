import { describe, expect, expectTypeOf, test } from 'vitest';
import {
  type Audit,
  type AuditIssue,
  AuditIssueSchema,
  AuditSchema,
  type AuditStatus,
  type IssueSeverity,
  type IssueStatus,
  type LatestAudit,
  LatestAuditSchema,
} from '../../src/resources/audits.js';
import { auditFixture, auditIssueFixture, latestAuditFixture } from '../fixtures/records.js';

describe('AuditSchema', () => {
  test('parses a completed audit', () => {
    expect(AuditSchema.parse(auditFixture)).toStrictEqual(auditFixture);
  });

  test('accepts null started_at/completed_at on an audit not started or finished', () => {
    const running = {
      ...auditFixture,
      status: 'crawling',
      crawl_progress: 37.5,
      completed_at: null,
    };
    expect(AuditSchema.parse(running).completed_at).toBeNull();
    const pending = { ...running, status: 'pending', started_at: null };
    expect(AuditSchema.parse(pending).started_at).toBeNull();
  });

  test('accepts an unknown status', () => {
    expect(AuditSchema.parse({ ...auditFixture, status: 'cancelled' }).status).toBe('cancelled');
  });

  test('keeps unknown fields', () => {
    expect(AuditSchema.parse({ ...auditFixture, max_crawl_pages: 500 })['max_crawl_pages']).toBe(500);
  });

  test.each([
    ['status', null],
    ['pages_crawled', '412'],
    ['critical_issues', 1.5],
    ['created_at', null],
    ['crawl_progress', '100%'],
  ])('rejects a wrong type for %s', (field, value) => {
    expect(AuditSchema.safeParse({ ...auditFixture, [field]: value }).success).toBe(false);
  });

  test('types', () => {
    expectTypeOf<'completed'>().toExtend<Audit['status']>();
    expectTypeOf<string>().toExtend<Audit['status']>();
    expectTypeOf<Audit['status']>().toEqualTypeOf<AuditStatus>();
    expectTypeOf<Audit['completed_at']>().toEqualTypeOf<string | null>();
    expectTypeOf<Audit['created_at']>().toEqualTypeOf<string>();
  });
});

describe('LatestAuditSchema', () => {
  test('parses the latest audit with queue size and issues summary', () => {
    expect(LatestAuditSchema.parse(latestAuditFixture)).toStrictEqual(latestAuditFixture);
  });

  test('requires pages_in_queue and issues_summary', () => {
    expect(LatestAuditSchema.safeParse(auditFixture).success).toBe(false);
    expect(
      LatestAuditSchema.safeParse({
        ...latestAuditFixture,
        issues_summary: { passed: 1, failed: '2', total: 3 },
      }).success,
    ).toBe(false);
  });

  test('keeps unknown fields in issues_summary', () => {
    const parsed = LatestAuditSchema.parse({
      ...latestAuditFixture,
      issues_summary: { ...latestAuditFixture.issues_summary, dismissed: 4 },
    });
    expect(parsed.issues_summary['dismissed']).toBe(4);
  });

  test('types', () => {
    expectTypeOf<LatestAudit>().toExtend<Audit>();
    expectTypeOf<LatestAudit['issues_summary']['failed']>().toEqualTypeOf<number>();
  });
});

describe('AuditIssueSchema', () => {
  test('parses an issue', () => {
    expect(AuditIssueSchema.parse(auditIssueFixture)).toStrictEqual(auditIssueFixture);
  });

  test('accepts unknown severity and status values', () => {
    const parsed = AuditIssueSchema.parse({
      ...auditIssueFixture,
      severity: 'info',
      status: 'dismissed',
    });
    expect([parsed.severity, parsed.status]).toEqual(['info', 'dismissed']);
  });

  test.each([
    ['severity', 1],
    ['affected_count', '23'],
    ['description', null],
  ])('rejects a wrong type for %s', (field, value) => {
    expect(AuditIssueSchema.safeParse({ ...auditIssueFixture, [field]: value }).success).toBe(false);
  });

  test('types', () => {
    expectTypeOf<'critical'>().toExtend<IssueSeverity>();
    expectTypeOf<string>().toExtend<IssueSeverity>();
    expectTypeOf<'passed'>().toExtend<IssueStatus>();
    expectTypeOf<AuditIssue['severity']>().toEqualTypeOf<IssueSeverity>();
    expectTypeOf<AuditIssue['status']>().toEqualTypeOf<IssueStatus>();
  });
});
