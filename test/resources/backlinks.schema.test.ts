import { describe, expect, expectTypeOf, test } from 'vitest';
import {
  type AnchorText,
  AnchorTextSchema,
  type BacklinkHistory,
  type BacklinkHistoryEntry,
  BacklinkHistorySchema,
  type BacklinkSummary,
  BacklinkSummarySchema,
  type BacklinkTarget,
  BacklinkTargetSchema,
  type ReferringDomain,
  ReferringDomainSchema,
} from '../../src/resources/backlinks.js';
import {
  anchorFixture,
  backlinkHistoryFixture,
  backlinkSummaryFixture,
  backlinkTargetFixture,
  referringDomainFixture,
} from '../fixtures/records.js';

describe('backlink schemas parse realistic records', () => {
  test.each([
    ['BacklinkTargetSchema', BacklinkTargetSchema, backlinkTargetFixture],
    ['BacklinkSummarySchema', BacklinkSummarySchema, backlinkSummaryFixture],
    ['BacklinkHistorySchema', BacklinkHistorySchema, backlinkHistoryFixture],
    ['AnchorTextSchema', AnchorTextSchema, anchorFixture],
    ['ReferringDomainSchema', ReferringDomainSchema, referringDomainFixture],
  ] as const)('%s', (_name, schema, fixture) => {
    expect(schema.parse(fixture)).toStrictEqual(fixture);
    // Objects are loose: unknown fields survive.
    expect((schema.parse({ ...fixture, added_later: 1 }) as Record<string, unknown>)['added_later']).toBe(1);
  });
});

describe('BacklinkTargetSchema', () => {
  test('accepts a null last_summary_update', () => {
    expect(
      BacklinkTargetSchema.parse({ ...backlinkTargetFixture, last_summary_update: null }).last_summary_update,
    ).toBeNull();
  });

  test.each([
    ['total_backlinks', 1843.5],
    ['rank', '41.5'],
    ['target_domain', null],
  ])('rejects a wrong type for %s', (field, value) => {
    expect(BacklinkTargetSchema.safeParse({ ...backlinkTargetFixture, [field]: value }).success).toBe(false);
  });
});

describe('BacklinkSummarySchema', () => {
  test('accepts null last_updated (never summarized) and fractional counts documented as numbers', () => {
    const parsed = BacklinkSummarySchema.parse({
      ...backlinkSummaryFixture,
      last_updated: null,
      average_domain_rank: 0.5,
    });
    expect(parsed.last_updated).toBeNull();
  });

  test('rejects a string count', () => {
    expect(BacklinkSummarySchema.safeParse({ ...backlinkSummaryFixture, broken_backlinks: '12' }).success).toBe(false);
  });
});

describe('BacklinkHistorySchema', () => {
  test('rejects wrong types in entries and summary', () => {
    const [day] = backlinkHistoryFixture.history;
    expect(
      BacklinkHistorySchema.safeParse({
        ...backlinkHistoryFixture,
        history: [{ ...day, lost_backlinks: null }],
      }).success,
    ).toBe(false);
    expect(
      BacklinkHistorySchema.safeParse({
        ...backlinkHistoryFixture,
        summary: { total_new: 1, total_lost: 1 },
      }).success,
    ).toBe(false);
  });

  test('accepts an empty history', () => {
    expect(BacklinkHistorySchema.parse({ ...backlinkHistoryFixture, history: [] }).history).toEqual([]);
  });
});

describe('AnchorTextSchema', () => {
  test('rejects wrong types', () => {
    expect(AnchorTextSchema.safeParse({ ...anchorFixture, is_dofollow: 1 }).success).toBe(false);
    expect(AnchorTextSchema.safeParse({ ...anchorFixture, count: 1.5 }).success).toBe(false);
  });
});

describe('ReferringDomainSchema (fields not shown)', () => {
  test('accepts a record with none of the guessed fields', () => {
    const parsed = ReferringDomainSchema.parse({
      referring_domain: 'blog.example',
      rank: 12,
      backlinks: 4,
    });
    expect(parsed['referring_domain']).toBe('blog.example');
    expect(parsed.domain).toBeUndefined();
  });

  test('still type-checks a guessed field when present', () => {
    expect(ReferringDomainSchema.safeParse({ domain: 'x.example', domain_rank: 'high' }).success).toBe(false);
  });

  test('rejects a non-object', () => {
    expect(ReferringDomainSchema.safeParse('blog.example').success).toBe(false);
  });
});

test('types', () => {
  expectTypeOf<BacklinkTarget['last_summary_update']>().toEqualTypeOf<string | null>();
  expectTypeOf<BacklinkSummary['total_backlinks']>().toEqualTypeOf<number>();
  expectTypeOf<BacklinkHistory['history']>().toEqualTypeOf<BacklinkHistoryEntry[]>();
  expectTypeOf<AnchorText['is_dofollow']>().toEqualTypeOf<boolean>();
  expectTypeOf<ReferringDomain['domain_rank']>().toEqualTypeOf<number | undefined>();
});
