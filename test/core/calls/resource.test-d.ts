/**
 * Compile-time checks of how a resource names a route's ids: by placeholder name, every one given,
 * none invented (src/core/calls/resource.ts).
 */
import { describe, expectTypeOf, test } from 'vitest';
import type { CallInit, IdsOf, ListInit, Placeholders } from '../../../src/core/calls/resource.js';

describe('route ids by name', () => {
  test('the placeholders of a template are its names', () => {
    expectTypeOf<Placeholders<'/projects/{projectId}/audits/{auditId}/issues'>>().toEqualTypeOf<
      'projectId' | 'auditId'
    >();
    expectTypeOf<Placeholders<'/webhooks'>>().toBeNever();
  });

  test('a route with placeholders needs each id, by name', () => {
    expectTypeOf<IdsOf<'/projects/{projectId}/prompts/{promptId}'>>().toEqualTypeOf<{
      ids: Readonly<Record<'projectId' | 'promptId', string>>;
    }>();
    const ok: CallInit<'/projects/{projectId}/prompts/{promptId}'> = { ids: { projectId: 'p', promptId: 'q' } };
    expectTypeOf(ok.ids).toEqualTypeOf<Readonly<Record<'projectId' | 'promptId', string>>>();
    // @ts-expect-error promptId is missing
    const missing: CallInit<'/projects/{projectId}/prompts/{promptId}'> = { ids: { projectId: 'p' } };
    // @ts-expect-error an id the route does not name
    const extra: ListInit<'/projects/{projectId}/prompts', object> = { ids: { projectId: 'p', promptId: 'q' } };
    // @ts-expect-error ids are required where the route has placeholders
    const none: CallInit<'/projects/{projectId}'> = { options: {} };
    expectTypeOf([missing, extra, none]).not.toBeNever();
  });

  test('a route without placeholders takes no ids', () => {
    const ok: CallInit<'/webhooks'> = {};
    // @ts-expect-error no placeholder to fill
    const extra: CallInit<'/webhooks'> = { ids: { webhookId: 'w' } };
    expectTypeOf([ok, extra]).not.toBeNever();
  });
});
