import { describe, expect, test } from 'vitest';
import { InvalidArgumentError } from '../../src/errors/client-errors.js';
import * as c from '../../src/internal/option-check.js';

const windows = c.object({ limit: c.integerIn(1, 10), intervalMs: c.numberIn(1, 1_000, ' ms') }, 'expected a window');
const check = c.object(
  {
    timeout: c.optional(c.numberIn(1, 1_000, ' ms')),
    rateLimit: c.optional(
      c.union(
        (v): v is false => v === false,
        c.object({ windows: c.optional(c.array(windows, '')) }, ''),
        'expected false or an object',
      ),
    ),
    headers: c.optional(c.record(c.string('expected a string header value'), 'expected an object of headers')),
  },
  'expected an object',
);

function refusal(value: unknown, root = ''): InvalidArgumentError {
  try {
    check(value, root);
  } catch (error) {
    if (error instanceof InvalidArgumentError) return error;
    throw error;
  }
  throw new Error('accepted');
}

describe('option checker', () => {
  test('accepts what the table allows, absent optional keys included', () => {
    expect(() => check({}, '')).not.toThrow();
    expect(() => check({ timeout: 5, rateLimit: false, headers: { a: 'b' } }, '')).not.toThrow();
    expect(() => check({ rateLimit: { windows: [{ limit: 2, intervalMs: 10 }] } }, '')).not.toThrow();
  });

  test('an unknown key names the closest known key with its full path', () => {
    const error = refusal({ rateLimit: { windows: [{ limit: 1, windowMs: 5 }] } });
    expect(error.argument).toBe('rateLimit.windows[0].windowMs');
    expect(error.message).toContain('did you mean rateLimit.windows[0].intervalMs?');
    expect(refusal({ timout: 5 }).message).toContain('did you mean timeout?');
  });

  test('an unknown key deeper down is reported before another problem found earlier', () => {
    expect(refusal({ timeout: 'x', rateLimit: { windowz: [] } }).argument).toBe('rateLimit.windowz');
  });

  test("a union reports inside the branch of the value's kind, else its own message", () => {
    expect(refusal({ rateLimit: { windows: [{ limit: 0, intervalMs: 5 }] } })).toMatchObject({
      argument: 'rateLimit.windows[0].limit',
    });
    expect(refusal({ rateLimit: 'no' }).message).toContain('expected false or an object');
    expect(refusal({ rateLimit: [] }).message).toContain('expected false or an object');
  });

  test('ranges, records and the root: each refusal names the path and what is allowed', () => {
    expect(refusal({ timeout: Infinity }).message).toBe('Invalid timeout: expected a number from 1 to 1,000 ms');
    expect(refusal({ headers: { a: 1 } }).argument).toBe('headers.a');
    expect(refusal(null).argument).toBe('options');
    expect(refusal({ timeout: 0 }, 'options').argument).toBe('options.timeout');
  });
});

test.each(['constructor', 'toString', '__proto__', 'hasOwnProperty'])(
  'an unknown key named like an Object.prototype member (%s) gets the usual refusal (issue 16)',
  (key) => {
    const value = JSON.parse(`{"${key}": 1}`) as Record<string, unknown>;
    const error = refusal(value);
    expect(error.argument).toBe(key);
    expect(error.message).not.toMatch(/native code|function/);
    expect(error.message).toMatch(/not an option/);
  },
);
