/**
 * A header name is case-insensitive, and `Headers` hands every name out in lower case: a server that
 * echoes a mixed-case key as a header NAME gave the redactor the key lowercased, which it did not
 * recognise, so `error.headers`, hook payloads and `withResponse()` showed the key in lower case.
 */
import { describe, expect, it } from 'vitest';
import { createRedactor } from '../../src/internal/redactor.js';

const KEY = 'sv_live_AbCdEf0123456789XyZ';

describe('redactor: header names', () => {
  it('masks a mixed-case key echoed as a header name (which Headers lowercases)', () => {
    const copy = createRedactor(KEY).response(
      new Response(null, { status: 403, headers: { [`x-${KEY}`]: '1', 'x-other': 'kept' } }),
    );
    const names = [...copy.headers.keys()];
    expect(names.join(' ')).not.toContain(KEY.toLowerCase());
    expect(copy.headers.get('x-***')).toBe('1');
    expect(copy.headers.get('x-other')).toBe('kept');
  });

  it('leaves a header name alone that only resembles the key', () => {
    const clean = new Response(null, { headers: { 'x-sv-live': '1' } });
    expect(createRedactor(KEY).response(clean)).toBe(clean);
  });
});
