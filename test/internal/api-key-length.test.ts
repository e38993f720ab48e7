/**
 * A key so short that it occurs in ordinary text (`'e'`, `'id'`, `'test'`) cannot be kept out of
 * what the SDK hands out without rewriting that text: the client's redactor replaces the key
 * everywhere, so with `apiKey: 'e'` every response read `succ***ss` and every call failed with
 * "Response body is not the API envelope". Such a key is refused where it is given, by name.
 */
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError, SeoVisibilityClient } from '../../src/index.js';
import { apiKey } from '../../src/internal/validate.js';
import { createSimulator } from '../../src/testing/index.js';

describe('apiKey length', () => {
  it.each(['e', 'id', 'test', 'abcdefg'])(
    'refuses %j, naming apiKey and the least length, without echoing it',
    (key) => {
      const error = (() => {
        try {
          apiKey(key);
        } catch (e) {
          return e;
        }
      })();
      expect(error).toBeInstanceOf(InvalidArgumentError);
      expect((error as Error).message).toMatch(/apiKey.*at least 8 characters/);
      expect((error as Error).message).not.toContain(`"${key}"`);
    },
  );

  it('takes a key of 8 characters and the simulator keys', () => {
    expect(apiKey('abcdefgh')).toBe('abcdefgh');
    const sim = createSimulator({ seed: 1 });
    expect(apiKey(sim.keys.readOnly)).toBe(sim.keys.readOnly);
  });

  it('a client is never built with a key that would rewrite the responses it reads', async () => {
    const sim = createSimulator({ seed: 1, keys: { readOnly: 'e' } });
    let outcome: unknown;
    try {
      const client = new SeoVisibilityClient({ apiKey: 'e', baseUrl: sim.baseUrl, fetch: sim.fetch });
      outcome = (await client.projects.list()).data.length;
    } catch (error) {
      outcome = error;
    }
    expect(outcome).toBeInstanceOf(InvalidArgumentError);
    expect(sim.requests).toHaveLength(0);
  });
});
