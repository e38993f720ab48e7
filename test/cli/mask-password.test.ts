import { describe, expect, test } from 'vitest';
import { withoutPassword } from '../../src/cli/mask-password.js';

/**
 * The CLI prints store and queue errors with the `--postgres` password masked. A password with
 * characters a URL must encode (`@`, `/`, `%`, `#`, a space) is written percent-encoded in the
 * connection string: a message may quote it encoded (the URL itself), decoded (a driver's own
 * wording), or as the URL parser re-encodes it. Every form is masked.
 */
describe('withoutPassword', () => {
  const cases: Array<[string, string, string]> = [
    // [connection string, password as the user means it, the encoded form written in the URL]
    ['postgres://sync:p%40ss%2Fw0rd@db.internal/warehouse', 'p@ss/w0rd', 'p%40ss%2Fw0rd'],
    ['postgres://sync:50%25%20off@db.internal/warehouse', '50% off', '50%25%20off'],
    ['postgresql://sync:s3cret@db.internal/warehouse', 's3cret', 's3cret'],
  ];

  test.each(cases)('%s: the encoded and the decoded password are both masked', (url, decoded, encoded) => {
    const message = `connect to ${url} failed: password authentication failed for user "sync" (password "${decoded}")`;
    const masked = withoutPassword(message, url);
    expect(masked).not.toContain(encoded);
    expect(masked).not.toContain(decoded);
    expect(masked).toContain('db.internal/warehouse');
    expect(masked).toContain('***');
  });

  test('a password the URL parser re-encodes (an unencoded @ inside it) is masked as given and as parsed', () => {
    const url = 'postgres://sync:p@ss@db.internal/warehouse';
    const masked = withoutPassword(`bad URL ${url}; as parsed: sync:p%40ss@db.internal; password p@ss`, url);
    expect(masked).not.toMatch(/p@ss|p%40ss/);
  });

  test('a password with a stray % (not decodable) is still masked as written', () => {
    const url = 'postgres://sync:100%pure@db.internal/warehouse';
    expect(withoutPassword(`cannot reach ${url}`, url)).toBe('cannot reach postgres://sync:***@db.internal/warehouse');
  });

  test('no URL, no password, or not a URL: the message is unchanged', () => {
    expect(withoutPassword('failed', undefined)).toBe('failed');
    expect(withoutPassword('failed', 'postgres://sync@db/x')).toBe('failed');
    expect(withoutPassword('failed', 'not a url')).toBe('failed');
  });
});
