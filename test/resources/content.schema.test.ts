import { describe, expect, expectTypeOf, test } from 'vitest';
import {
  type ContentDetail,
  ContentDetailSchema,
  type ContentItem,
  ContentItemSchema,
  type ContentPreferences,
  ContentPreferencesSchema,
  type ContentStatus,
} from '../../src/resources/content.js';
import { contentDetailFixture, contentItemFixture, preferencesFixture } from '../fixtures/records.js';

describe('ContentItemSchema', () => {
  test('parses a realistic content item', () => {
    expect(ContentItemSchema.parse(contentItemFixture)).toStrictEqual(contentItemFixture);
  });

  test('accepts null on every "string or null" field', () => {
    const parsed = ContentItemSchema.parse({
      ...contentItemFixture,
      description: null,
      due_date: null,
      document_url: null,
      source_url: null,
      featured_image_url: null,
    });
    expect(parsed.description).toBeNull();
    expect(parsed.document_url).toBeNull();
  });

  test('accepts a content status not in the documented list', () => {
    expect(ContentItemSchema.parse({ ...contentItemFixture, status: 'In Review' }).status).toBe('In Review');
  });

  test('keeps unknown fields', () => {
    expect(ContentItemSchema.parse({ ...contentItemFixture, author: 'Sam' })['author']).toBe('Sam');
  });

  test.each([
    ['title', null],
    ['scheduled_date', null],
    ['priority', 'high'],
    ['priority', 1.5],
    ['status', 2],
    ['description', 42],
  ])('rejects a wrong type for %s (%s)', (field, value) => {
    expect(ContentItemSchema.safeParse({ ...contentItemFixture, [field]: value }).success).toBe(false);
  });

  test('types', () => {
    expectTypeOf<'Needs Approval'>().toExtend<ContentStatus>();
    expectTypeOf<string>().toExtend<ContentItem['status']>();
    expectTypeOf<ContentItem['description']>().toEqualTypeOf<string | null>();
    expectTypeOf<ContentItem['scheduled_date']>().toEqualTypeOf<string>();
  });
});

describe('ContentDetailSchema', () => {
  test('parses a content detail with body and meta data', () => {
    expect(ContentDetailSchema.parse(contentDetailFixture)).toStrictEqual(contentDetailFixture);
  });

  test('accepts null content_body and meta_data', () => {
    const parsed = ContentDetailSchema.parse({
      ...contentDetailFixture,
      content_body: null,
      meta_data: null,
    });
    expect([parsed.content_body, parsed.meta_data]).toEqual([null, null]);
  });

  test('accepts meta_data with other names or shapes and keeps them', () => {
    const parsed = ContentDetailSchema.parse({
      ...contentDetailFixture,
      meta_data: { wordCount: 900, reading_time: '4 min', revision_notes: [{ note: 'Fix H2' }] },
    });
    expect(parsed.meta_data?.['wordCount']).toBe(900);
    expect(parsed.meta_data?.reading_time).toBe('4 min');
    expect(parsed.meta_data?.word_count).toBeUndefined();
  });

  test('rejects wrong types', () => {
    expect(ContentDetailSchema.safeParse({ ...contentDetailFixture, content_body: 12 }).success).toBe(false);
    expect(ContentDetailSchema.safeParse({ ...contentDetailFixture, meta_data: 'n/a' }).success).toBe(false);
    expect(ContentDetailSchema.safeParse({ ...contentDetailFixture, meta_data: { word_count: 'many' } }).success).toBe(
      false,
    );
  });

  test('requires the detail fields', () => {
    expect(ContentDetailSchema.safeParse(contentItemFixture).success).toBe(false);
  });

  test('types', () => {
    expectTypeOf<ContentDetail>().toExtend<ContentItem>();
    expectTypeOf<ContentDetail['content_body']>().toEqualTypeOf<string | null>();
    expectTypeOf<NonNullable<ContentDetail['meta_data']>['word_count']>().toEqualTypeOf<number | null | undefined>();
  });
});

describe('ContentPreferencesSchema (record not shown)', () => {
  test('parses the preferences record', () => {
    expect(ContentPreferencesSchema.parse(preferencesFixture)).toStrictEqual(preferencesFixture);
  });

  test('accepts an empty or differently shaped record and keeps its fields', () => {
    expect(ContentPreferencesSchema.parse({})).toStrictEqual({});
    const parsed = ContentPreferencesSchema.parse({ tone: 'friendly', updated_at: null });
    expect(parsed['tone']).toBe('friendly');
  });

  test('rejects a wrong type on a typed field, and a non-object', () => {
    expect(ContentPreferencesSchema.safeParse({ preferences: 5 }).success).toBe(false);
    expect(ContentPreferencesSchema.safeParse('Friendly tone').success).toBe(false);
  });

  test('types', () => {
    expectTypeOf<ContentPreferences['preferences']>().toEqualTypeOf<string | null | undefined>();
  });
});
