/**
 * Compile-time checks that the SDK's own pool shapes (which keep `pg` out of the declarations of
 * seo-visibility/fleet and seo-visibility/webhooks) still take a `pg.Pool`, as the docs promise.
 */
import type pg from 'pg';
import { describe, expectTypeOf, test } from 'vitest';
import type { FleetOptions, FleetPostgresPool } from '../../src/fleet/index.js';
import type { WebhookPostgresPool } from '../../src/webhooks/index.js';

describe('a pg.Pool is the pool the fleet and the webhook dedupe store take', () => {
  test('FleetOptions.postgres', () => {
    expectTypeOf<pg.Pool>().toMatchTypeOf<FleetPostgresPool>();
    expectTypeOf<pg.Pool>().toMatchTypeOf<FleetOptions['postgres']>();
  });

  test('postgresDedupeStore', () => {
    expectTypeOf<pg.Pool>().toMatchTypeOf<WebhookPostgresPool>();
  });
});
