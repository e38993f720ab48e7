import { describe, expect, expectTypeOf, test } from 'vitest';
import { type Deleted, DeletedSchema, type Report, ReportSchema } from '../../src/resources/reports.js';
import { reportFixture } from '../fixtures/records.js';

describe('ReportSchema (record not shown)', () => {
  test('parses a realistic report and keeps unknown fields', () => {
    expect(ReportSchema.parse(reportFixture)).toStrictEqual(reportFixture);
    const parsed = ReportSchema.parse({ ...reportFixture, expires_at: null, views: 3 });
    expect(parsed['views']).toBe(3);
    expect(parsed['expires_at']).toBeNull();
  });

  test('accepts a record with none of the guessed fields', () => {
    expect(ReportSchema.parse({ share_link: 'https://r.example/abc' })['share_link']).toBe('https://r.example/abc');
  });

  test('accepts a slug id that is not a UUID', () => {
    expect(ReportSchema.parse({ id: 'q2-performance-acme' }).id).toBe('q2-performance-acme');
  });

  test('rejects a wrong type on a guessed field, and a non-object', () => {
    expect(ReportSchema.safeParse({ ...reportFixture, url: 42 }).success).toBe(false);
    expect(ReportSchema.safeParse(['q2']).success).toBe(false);
  });

  test('types', () => {
    expectTypeOf<Report['id']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<Report>().toExtend<Record<string, unknown>>();
  });
});

describe('DeletedSchema (delete body not shown)', () => {
  test.each([null, {}, { deleted: true }, reportFixture, 'ok'])('accepts %j untouched', (data) => {
    expect(DeletedSchema.parse(data)).toStrictEqual(data);
  });

  test('types', () => {
    expectTypeOf<Deleted>().toBeUnknown();
  });
});
