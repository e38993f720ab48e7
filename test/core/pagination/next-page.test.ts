import { describe, expect, test } from 'vitest';
import { type PageStep, nextPage, pageFingerprint } from '../../../src/core/pagination/next-page.js';

const pagination = (total: number, offset: number, hasMore: boolean) => ({
  total,
  limit: 100,
  offset,
  has_more: hasMore,
});
const step = (overrides: Partial<PageStep>): PageStep => ({
  offset: 0,
  limit: 100,
  received: 100,
  pagination: undefined,
  repeatsPrevious: false,
  ...overrides,
});

describe('nextPage: the one next-page rule', () => {
  test.each([
    [
      'has_more: the next page starts after what arrived',
      step({ received: 90, pagination: pagination(500, 0, true) }),
      { kind: 'next', offset: 90 },
    ],
    ['has_more false ends the list', step({ offset: 400, pagination: pagination(500, 400, false) }), { kind: 'end' }],
    [
      'an empty last page ends the list',
      step({ offset: 500, received: 0, pagination: pagination(500, 500, false) }),
      { kind: 'end' },
    ],
    ['no pagination: a full page means more', step({}), { kind: 'next', offset: 100 }],
    ['no pagination: a short page is the last', step({ received: 99 }), { kind: 'end' }],
    [
      'no pagination and no limit: the server default, 50',
      step({ limit: undefined, received: 50 }),
      { kind: 'next', offset: 50 },
    ],
  ])('%s', (_name, input, expected) => {
    expect(nextPage(input)).toEqual(expected);
  });

  test.each([
    [
      'an empty page while has_more',
      step({ offset: 1_000, received: 0, pagination: pagination(2_345, 1_000, true) }),
      /offset 1000 came back empty; total was 2345, has_more true/,
    ],
    [
      'an empty page while total promises more',
      step({ offset: 1_000, received: 0, pagination: pagination(2_345, 1_000, false) }),
      /came back empty/,
    ],
    [
      'a page served at another offset',
      step({ offset: 100, pagination: pagination(500, 0, true) }),
      /page at offset 100 came back at offset 0/,
    ],
    [
      'a page that repeats the one before',
      step({ offset: 100, repeatsPrevious: true, pagination: pagination(500, 100, true) }),
      /repeats the page before it/,
    ],
    ['a repeat without pagination too', step({ offset: 100, repeatsPrevious: true }), /repeats the page before it/],
    [
      'has_more past total',
      step({ offset: 100, pagination: pagination(150, 100, true) }),
      /next offset 200 is past total 150/,
    ],
  ])('broken: %s', (_name, input, problem) => {
    const verdict = nextPage(input);
    expect(verdict.kind).toBe('broken');
    expect(verdict.kind === 'broken' && verdict.problem).toMatch(problem);
  });

  test('the fingerprint tells equal pages apart from different ones', () => {
    expect(pageFingerprint([{ id: 1 }])).toBe(pageFingerprint([{ id: 1 }]));
    expect(pageFingerprint([{ id: 1 }])).not.toBe(pageFingerprint([{ id: 2 }]));
  });
});
