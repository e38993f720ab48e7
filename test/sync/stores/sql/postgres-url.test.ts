import { describe, expect, test } from 'vitest';
import { postgresStore, SyncError } from '../../../../src/sync/index.js';

/**
 * A connection string whose user, password or database holds a `%` that is not percent-encoding
 * (`100%pure`) made `postgresStore` throw a bare `URIError: URI malformed`, naming neither the
 * argument nor the fix. It is refused as the store's own error, without repeating the value.
 */
describe('postgresStore(connectionString) with a stray %', () => {
  test.each([
    ['password', 'postgres://sync:100%pure@db.internal/warehouse'],
    ['user', 'postgres://sy%nc:secret@db.internal/warehouse'],
    ['database', 'postgres://sync:secret@db.internal/ware%house'],
  ])('in the %s: a SyncError naming the argument and the fix, without the value', (part, url) => {
    let error: unknown;
    try {
      postgresStore(url);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SyncError);
    const { code, message } = error as SyncError;
    expect(code).toBe('store');
    expect(message).toContain('postgresStore(connectionString)');
    expect(message).toContain(`its ${part}`);
    expect(message).toContain('%25');
    expect(message).not.toMatch(/100%pure|secret|sy%nc|ware%house/);
  });

  test('an encoded password still decodes (p%40ss is p@ss)', () => {
    expect(() => postgresStore('postgres://sync:p%40ss@db.internal/warehouse')).not.toThrow();
  });
});
