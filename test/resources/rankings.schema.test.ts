import { describe, expect, expectTypeOf, test } from 'vitest';
import {
  type KeywordHistory,
  KeywordHistoryEntrySchema,
  KeywordHistorySchema,
  keywordIdOf,
  type KeywordRanking,
  KeywordRankingSchema,
} from '../../src/resources/rankings.js';
import { ids, keywordFixture, keywordHistoryFixture } from '../fixtures/records.js';

describe('KeywordRankingSchema', () => {
  test('parses a realistic keyword ranking', () => {
    expect(KeywordRankingSchema.parse(keywordFixture)).toStrictEqual(keywordFixture);
  });

  test('parses without any id field (its name is not shown)', () => {
    const { id: _id, ...noId } = keywordFixture;
    expect(KeywordRankingSchema.parse(noId).id).toBeUndefined();
  });

  test('keeps unknown fields', () => {
    const parsed = KeywordRankingSchema.parse({ ...keywordFixture, search_volume: 5400 });
    expect(parsed['search_volume']).toBe(5400);
  });

  test.each([
    ['desktop_position', '4'],
    ['net_change', 1.5],
    ['keyword', null],
    ['id', 123],
    ['keyword_id', false],
  ])('rejects a wrong type for %s', (field, value) => {
    expect(KeywordRankingSchema.safeParse({ ...keywordFixture, [field]: value }).success).toBe(false);
  });

  test('types', () => {
    expectTypeOf<KeywordRanking['desktop_position']>().toEqualTypeOf<number>();
    expectTypeOf<KeywordRanking['id']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<KeywordRanking['keyword_id']>().toEqualTypeOf<string | undefined>();
  });
});

describe('keywordIdOf', () => {
  const { id: _id, ...bare } = keywordFixture;

  test('reads id', () => {
    expect(keywordIdOf(keywordFixture)).toBe(ids.keyword);
  });

  test('falls back to keyword_id', () => {
    expect(keywordIdOf({ ...bare, keyword_id: ids.keyword })).toBe(ids.keyword);
  });

  test('prefers id when both are present', () => {
    expect(keywordIdOf({ ...bare, id: 'a', keyword_id: 'b' })).toBe('a');
  });

  test('skips an empty id', () => {
    expect(keywordIdOf({ ...bare, id: '', keyword_id: 'b' })).toBe('b');
  });

  test('is undefined when neither exists', () => {
    expect(keywordIdOf(bare)).toBeUndefined();
  });

  test('types', () => {
    expectTypeOf(keywordIdOf).returns.toEqualTypeOf<string | undefined>();
  });
});

describe('KeywordHistorySchema', () => {
  test('parses a realistic history', () => {
    expect(KeywordHistorySchema.parse(keywordHistoryFixture)).toStrictEqual(keywordHistoryFixture);
  });

  test('accepts a null local_pack_position but not a missing one', () => {
    const [day] = keywordHistoryFixture.history;
    expect(KeywordHistoryEntrySchema.parse({ ...day, local_pack_position: null }).local_pack_position).toBeNull();
    const { local_pack_position: _l, ...missing } = day!;
    expect(KeywordHistoryEntrySchema.safeParse(missing).success).toBe(false);
  });

  test('keeps unknown fields in entries and summary', () => {
    const parsed = KeywordHistorySchema.parse({
      ...keywordHistoryFixture,
      history: [{ ...keywordHistoryFixture.history[0], sitelinks: true }],
      summary: { ...keywordHistoryFixture.summary, average_position: 5.5 },
    });
    expect(parsed.history[0]?.['sitelinks']).toBe(true);
    expect(parsed.summary['average_position']).toBe(5.5);
  });

  test('rejects wrong types', () => {
    const bad = {
      ...keywordHistoryFixture,
      summary: { ...keywordHistoryFixture.summary, data_points: '2' },
    };
    expect(KeywordHistorySchema.safeParse(bad).success).toBe(false);
    expect(
      KeywordHistorySchema.safeParse({
        ...keywordHistoryFixture,
        history: [{ ...keywordHistoryFixture.history[0], featured_snippet: 'no' }],
      }).success,
    ).toBe(false);
    expect(KeywordHistorySchema.safeParse({ ...keywordHistoryFixture, history: {} }).success).toBe(false);
  });

  test('types', () => {
    expectTypeOf<KeywordHistory['history'][number]['local_pack_position']>().toEqualTypeOf<number | null>();
    expectTypeOf<KeywordHistory['summary']['best_position']>().toEqualTypeOf<number>();
  });
});
