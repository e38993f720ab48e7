import { describe, expect, expectTypeOf, test } from 'vitest';
import * as z from 'zod/mini';
import {
  type AuditCompletedEvent,
  type AuditStartedEvent,
  type ContentStatusChangedEvent,
  KnownWebhookEventSchema,
  type KnownWebhookEvent,
  type PromptsUpdatedEvent,
  type UnknownWebhookEvent,
  UnknownWebhookEventSchema,
  type WebhookEvent,
  WebhookEventSchema,
} from '../../../src/resources/webhooks/event-schemas.js';
import { KNOWN_EVENT_NAMES, type KnownWebhookEventName } from '../../../src/resources/webhooks/event-names.js';
import { isKnownWebhookEvent } from '../../../src/webhooks/parse-event.js';
import {
  auditCompletedEventFixture,
  auditStartedEventFixture,
  contentCreatedEventFixture,
  contentStatusChangedEventFixture,
  eventFixtures,
  ids,
  keywordsUpdatedEventFixture,
  promptsUpdatedEventFixture,
} from '../../fixtures/records.js';

describe('WebhookEventSchema', () => {
  test('has one fixture per documented event name', () => {
    expect(eventFixtures.map((f) => f.event)).toEqual([...KNOWN_EVENT_NAMES]);
  });

  test.each(eventFixtures.map((f) => [f.event, f] as const))('parses %s as a known event', (_name, fixture) => {
    const parsed = WebhookEventSchema.parse(fixture);
    expect(parsed).toStrictEqual(fixture);
    expect(isKnownWebhookEvent(parsed)).toBe(true);
  });

  test('discriminates on `event` and narrows data', () => {
    const parsed = WebhookEventSchema.parse(auditCompletedEventFixture);
    if (!isKnownWebhookEvent(parsed)) throw new Error('expected a known event');
    switch (parsed.event) {
      case 'audit.completed':
        expectTypeOf(parsed).toEqualTypeOf<AuditCompletedEvent>();
        expect(parsed.data.pages_crawled).toBe(412);
        break;
      default:
        throw new Error(`wrong branch: ${parsed.event}`);
    }
  });

  test('keeps unknown fields on the payload and in data', () => {
    const parsed = WebhookEventSchema.parse({
      ...auditStartedEventFixture,
      delivery_id: 'd-1',
      data: { ...auditStartedEventFixture.data, triggered_by: 'schedule' },
    });
    expect(parsed['delivery_id']).toBe('d-1');
    expect(parsed.data['triggered_by']).toBe('schedule');
  });

  test('accepts an unknown content status in content.status_changed', () => {
    const payload = {
      ...contentStatusChangedEventFixture,
      data: { ...contentStatusChangedEventFixture.data, new_status: 'revising' },
    };
    const parsed = WebhookEventSchema.parse(payload) as ContentStatusChangedEvent;
    expect(parsed.data.new_status).toBe('revising');
  });

  describe('an unknown event name parses as the generic event', () => {
    const payload = {
      event: 'backlinks.updated',
      timestamp: '2026-06-03T00:00:00.000Z',
      project_id: ids.project,
      data: { new_backlinks: 14, domain: 'x.example' },
    };

    test('parsed, kept whole, and not known', () => {
      const parsed = WebhookEventSchema.parse(payload);
      expect(parsed).toStrictEqual(payload);
      expect(isKnownWebhookEvent(parsed)).toBe(false);
      expect(parsed.data['new_backlinks']).toBe(14);
    });

    test('still needs the common envelope', () => {
      expect(WebhookEventSchema.safeParse({ ...payload, data: 'x' }).success).toBe(false);
      expect(WebhookEventSchema.safeParse({ ...payload, timestamp: 1 }).success).toBe(false);
      const { project_id: _p, ...noProject } = payload;
      expect(WebhookEventSchema.safeParse(noProject).success).toBe(false);
    });
  });

  describe('a known event name with a malformed payload fails', () => {
    const { pages_crawled: _p, ...missingPages } = auditCompletedEventFixture.data;
    test.each([
      ['missing data field', { ...auditCompletedEventFixture, data: missingPages }],
      [
        'wrong data type',
        {
          ...keywordsUpdatedEventFixture,
          data: { keywords_updated: '250', job_id: ids.job },
        },
      ],
      [
        'fractional integer',
        {
          ...auditStartedEventFixture,
          data: { ...auditStartedEventFixture.data, max_crawl_pages: 1.5 },
        },
      ],
      ['data not an object', { ...promptsUpdatedEventFixture, data: null }],
      ['bad timestamp type', { ...contentCreatedEventFixture, timestamp: null }],
    ])('%s', (_case, payload) => {
      const result = WebhookEventSchema.safeParse(payload);
      expect(result.success).toBe(false);
      // The generic branch refuses documented names, so the failure is not swallowed there.
      expect(UnknownWebhookEventSchema.safeParse(payload).success).toBe(false);
    });

    test('the name check raises the issue z.refine would (its stand-in, kept out of the bundle)', () => {
      const known = new Set<string>(KNOWN_EVENT_NAMES);
      const refined = z.looseObject({
        ...UnknownWebhookEventSchema.shape,
        event: z.string().check(
          z.refine((name) => !known.has(name), {
            message: "a documented event name: the payload must match that event's documented shape",
            abort: true,
          }),
        ),
      });
      const payload = { ...auditCompletedEventFixture, data: missingPages, timestamp: 7 };
      expect(UnknownWebhookEventSchema.safeParse(payload).error?.issues).toEqual(
        refined.safeParse(payload).error?.issues,
      );
      expect(UnknownWebhookEventSchema.safeParse(payload).error?.issues[0]).toStrictEqual({
        code: 'custom',
        path: ['event'],
        message: "a documented event name: the payload must match that event's documented shape",
      });
    });
  });

  test('each event name is checked as z.literal would: the same issues for any other value', () => {
    for (const fixture of eventFixtures) {
      const schema = KnownWebhookEventSchema.def.options[KNOWN_EVENT_NAMES.indexOf(fixture.event)]!;
      const literal = z.looseObject({ ...schema.shape, event: z.literal(fixture.event) });
      const { event: _e, ...noEvent } = fixture;
      for (const payload of [
        fixture,
        { ...fixture, event: 'other' },
        { ...fixture, event: 7 },
        noEvent,
        { ...fixture, event: null, data: 1 },
      ]) {
        expect(schema.safeParse(payload), JSON.stringify(payload)).toEqual(literal.safeParse(payload));
      }
    }
  });

  test('names the first problem of the documented event in the error message', () => {
    const result = WebhookEventSchema.safeParse({
      ...keywordsUpdatedEventFixture,
      data: { keywords_updated: '250', job_id: ids.job },
    });
    expect(result.error?.issues[0]?.message).toBe(
      'Invalid "keywords.updated" event at data.keywords_updated: expected number, received string',
    );
    const unknown = WebhookEventSchema.safeParse({
      event: 'x.y',
      timestamp: 't',
      project_id: 'p',
      data: 1,
    });
    expect(unknown.error?.issues[0]?.message).toBe('Invalid webhook event at data: expected object, received number');
  });

  test.each([
    null,
    'audit.completed',
    [],
    {
      event: 42,
      timestamp: 't',
      project_id: 'p',
      data: {},
    },
  ])('rejects a non-event %j', (payload) => {
    expect(WebhookEventSchema.safeParse(payload).success).toBe(false);
  });
});

describe('types', () => {
  test('the schema infers the public union', () => {
    expectTypeOf<z.infer<typeof WebhookEventSchema>>().toEqualTypeOf<WebhookEvent>();
    // The six subscribable names, and the test delivery (known, but not a name to subscribe to).
    expectTypeOf<KnownWebhookEvent['event']>().toEqualTypeOf<KnownWebhookEventName | 'webhook.test'>();
    expectTypeOf<UnknownWebhookEvent['event']>().toEqualTypeOf<string>();
    expectTypeOf<UnknownWebhookEvent['data']>().toEqualTypeOf<Record<string, unknown>>();
  });

  test('event data fields', () => {
    expectTypeOf<AuditStartedEvent['data']['max_crawl_pages']>().toEqualTypeOf<number>();
    expectTypeOf<PromptsUpdatedEvent['data']['best_model']>().toEqualTypeOf<string>();
    expectTypeOf<'Approved'>().toExtend<ContentStatusChangedEvent['data']['new_status']>();
    expectTypeOf<string>().toExtend<ContentStatusChangedEvent['data']['new_status']>();
  });

  test('isKnownWebhookEvent narrows to the documented union', () => {
    expectTypeOf(isKnownWebhookEvent).guards.toEqualTypeOf<KnownWebhookEvent>();
  });
});
