import { describe, expect, test } from 'vitest';
import { createRedactor } from '../../src/internal/redactor.js';

const KEY = 'sv_live_abc"\\/123';
const redact = createRedactor(KEY);
const escapedKey = [...KEY].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');

describe('createRedactor', () => {
  test('texts: every occurrence becomes ***; other texts are returned as they are', () => {
    expect(redact.text(`Bearer ${KEY} and ${KEY}`)).toBe('Bearer *** and ***');
    const plain = 'nothing here';
    expect(redact.text(plain)).toBe(plain);
  });

  test('JSON texts: a body that may spell the key (in clear, or with the escapes that can) is walked once parsed', () => {
    expect(redact.mayHold(JSON.stringify({ id: KEY }))).toBe(true);
    expect(redact.mayHold(`{"id":"${escapedKey}"}`)).toBe(true);
    expect(redact.json(JSON.parse(`{"id":"${escapedKey}"}`))).toEqual({ id: '***' });
    // Non-ASCII escapes and \" cannot spell a key of letters and digits: one includes settles it.
    const plain = createRedactor('sv_live_0123456789');
    expect(plain.mayHold('{"id":"caf\\u00e9 \\"quoted\\""}')).toBe(false);
    expect(plain.mayHold('{"id":"\\u0073v_live_0123456789"}')).toBe(true);
  });

  test('parsed values: strings and keys are redacted in a copy; untouched parts are shared, __proto__ stays an own key', () => {
    const untouched = { a: [1, 'x'] };
    const value = JSON.parse(
      `{"keep":${JSON.stringify(untouched)},"list":["${escapedKey}"],"__proto__":{"isAdmin":true},${JSON.stringify(KEY)}:1}`,
    ) as Record<string, unknown>;
    const clean = redact.json(value);
    expect(clean).not.toBe(value);
    expect(clean.keep).toBe(value.keep);
    expect(clean.list).toEqual(['***']);
    expect(clean['***']).toBe(1);
    expect(Object.hasOwn(clean, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(clean)).toBe(Object.prototype);
    expect(JSON.stringify(clean)).not.toContain('abc');
    expect(redact.json(untouched)).toBe(untouched);
  });

  test('responses: headers and status text without the key; a clean response is the same object', () => {
    const clean = new Response('{}', { status: 200, headers: { 'x-a': '1' } });
    expect(redact.response(clean)).toBe(clean);
    const dirty = new Response(null, {
      status: 403,
      statusText: `no ${KEY.slice(0, 8)}`,
      headers: { 'x-echo': `Bearer ${KEY}` },
    });
    const copy = redact.response(dirty);
    expect(copy.status).toBe(403);
    expect(copy.headers.get('x-echo')).toBe('Bearer ***');
    expect(
      createRedactor('sv_live_x')
        .response(new Response(null, { headers: { sv_live_x: '1' } }))
        .headers.get('***'),
    ).toBe('1');
  });

  test('errors: message, stack, fields and the cause chain, in place', () => {
    const cause = { detail: `key ${KEY}` };
    const error = Object.assign(new Error(`sent ${KEY}`, { cause: new Error(`inner ${KEY}`, { cause }) }), {
      headers: { echo: KEY },
    });
    expect(redact.error(error)).toBe(error);
    expect(error.message).toBe('sent ***');
    expect(error.stack).not.toContain(KEY);
    expect(error.headers.echo).toBe('***');
    expect((error.cause as Error).message).toBe('inner ***');
    expect(cause.detail).toBe('key ***');
  });

  test('a frozen error, or one with a throwing getter, is returned as it is rather than throwing', () => {
    const frozen = Object.freeze(new Error(`sent ${KEY}`));
    expect(redact.error(frozen)).toBe(frozen);
    const getter = Object.defineProperty(new Error('x'), 'detail', {
      get() {
        throw new Error('no');
      },
    });
    expect(redact.error(getter)).toBe(getter);
  });

  test('an error whose cause chain is a cycle is still redacted, and returns', () => {
    const a = new Error(KEY) as Error & { cause?: unknown };
    a.cause = a;
    expect(redact.error(a).message).toBe('***');
  });
});
