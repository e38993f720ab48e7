/**
 * The bounds of the pool `postgresDedupeStore` makes are options; a bad one is refused at once,
 * naming the option, before any connection.
 */
import { expect, test } from 'vitest';
import { isInvalidArgumentError } from '../../src/index.js';
import { postgresDedupeStore } from '../../src/webhooks/index.js';

const url = 'postgres://u:pw@127.0.0.1:1/x';

test.each([
  ['connectTimeoutMs', 0],
  ['connectTimeoutMs', 1.5],
  ['queryTimeoutMs', -1],
  ['queryTimeoutMs', Number.POSITIVE_INFINITY],
  ['queryTimeoutMs', '1000'],
])('%s: %s is refused, naming the option', (name, value) => {
  let error: unknown;
  try {
    postgresDedupeStore(url, { [name]: value });
  } catch (e) {
    error = e;
  }
  expect(isInvalidArgumentError(error) && error.argument).toBe(name);
  expect(String(error)).toMatch(/positive integer/);
  expect(String(error)).not.toContain('pw');
});

test('positive whole numbers of ms are taken', () => {
  expect(() => postgresDedupeStore(url, { connectTimeoutMs: 1, queryTimeoutMs: 60_000 })).not.toThrow();
});

test.each(['connectTimeoutMs', 'queryTimeoutMs'])(
  '%s beside a pool of the caller is refused: it would bound nothing (the pool is theirs)',
  (name) => {
    const pool = { query: async () => ({ rows: [] }), connect: async () => ({}) };
    let error: unknown;
    try {
      postgresDedupeStore(pool as never, { [name]: 5_000 });
    } catch (e) {
      error = e;
    }
    expect(isInvalidArgumentError(error) && error.argument).toBe(name);
    expect(String(error)).toMatch(/connection string/);
  },
);
