import { describe, expect, expectTypeOf, test } from 'vitest';
import * as schemas from '../../src/schemas/index.js';
import type { Audit, KeywordRanking, WebhookEvent } from '../../src/schemas/index.js';
import type { Audit as AuditFromFile } from '../../src/schemas/audits.js';

describe('src/schemas/index', () => {
  test('exports only the helpers as values, never a schema', () => {
    expect(Object.keys(schemas).sort()).toEqual([
      'KNOWN_EVENT_NAMES',
      'isKnownWebhookEvent',
      'keywordIdOf',
    ]);
  });

  test('re-exports the types', () => {
    expectTypeOf<Audit>().toEqualTypeOf<AuditFromFile>();
    expectTypeOf(schemas.keywordIdOf).parameter(0).toEqualTypeOf<KeywordRanking>();
    expectTypeOf(schemas.isKnownWebhookEvent).parameter(0).toEqualTypeOf<WebhookEvent>();
  });
});
