/**
 * Fleet mode of `listen` / `webhooks ensure`: each account's URL secret is derived from the one
 * secret (and tells nothing of another's), and the shared dedupe table keeps each account's events
 * apart, down to what a restart recovers.
 */
import { describe, expect, it } from 'vitest';
import { accountDedupe } from '../../src/cli/account-dedupe.js';
import { accountHookPath, accountWebhookSecret } from '../../src/cli/account-secrets.js';
import { createWebhookReceiver, generateWebhookSecret, memoryDedupeStore } from '../../src/webhooks/index.js';
import type { ReopenableDedupeStore } from '../../src/webhooks/postgres-dedupe-store.js';

describe('account secrets', () => {
  it('are stable, distinct per account and per main secret, and valid receiver secrets', async () => {
    const main = generateWebhookSecret();
    const acme = await accountWebhookSecret(main, 'acme');
    expect(await accountWebhookSecret(main, 'acme')).toBe(acme);
    expect(await accountWebhookSecret(main, 'globex')).not.toBe(acme);
    expect(await accountWebhookSecret(generateWebhookSecret(), 'acme')).not.toBe(acme);
    expect(acme).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(acme).not.toContain(main);
    expect(() => createWebhookReceiver({ secret: acme })).not.toThrow();
    expect(accountHookPath('/hooks/seo/', 'acme')).toBe('/hooks/seo/acme');
    expect(accountHookPath('https://example.com/hooks/seo', 'acme.eu')).toBe('https://example.com/hooks/seo/acme.eu');
  });
});

/** A durable store in memory: keeps bodies until handled, hands them out once; `reopen` frees a key, keeping its body. */
function durable(): ReopenableDedupeStore & { rows: Map<string, string | null> } {
  const rows = new Map<string, string | null>();
  const freed = new Set<string>();
  return {
    rows,
    async claim(key, _expiresAt, _now, body) {
      if (rows.has(key) && !freed.has(key)) return false;
      freed.delete(key);
      rows.set(key, body ?? null);
      return true;
    },
    async release(key) {
      rows.delete(key);
    },
    async reopen(key) {
      freed.add(key);
    },
    async handled(key) {
      rows.set(key, null);
    },
    async takeUnhandled() {
      return [...rows].filter(([, body]) => body !== null).map(([key, body]) => ({ key, body: body! }));
    },
  };
}

describe('accountDedupe', () => {
  it("keeps one account's key from counting as another's repeat", async () => {
    const dedupe = accountDedupe(memoryDedupeStore(), ['acme', 'globex']);
    expect(await dedupe.of('acme').claim('k', 10, 0)).toBe(true);
    expect(await dedupe.of('acme').claim('k', 10, 0)).toBe(false);
    expect(await dedupe.of('globex').claim('k', 10, 0)).toBe(true);
  });

  it('hands each account the unhandled events it received, once; those of unknown accounts are counted, not taken', async () => {
    const base = durable();
    const before = accountDedupe(base, ['acme', 'globex', 'gone']);
    await before.of('acme').claim('a1', 10, 0, '{"a":1}');
    await before.of('acme').claim('a2', 10, 0, '{"a":2}');
    await before.of('acme').handled!('a2');
    await before.of('globex').claim('g1', 10, 0, '{"g":1}');
    await before.of('gone').claim('x1', 10, 0, '{"x":1}');

    const after = accountDedupe(base, ['acme', 'globex']);
    expect(await after.takeUnhandled(0, 0)).toBe(1);
    expect(await after.of('acme').takeUnhandled!(0, 0)).toEqual([{ key: 'a1', body: '{"a":1}' }]);
    expect(await after.of('acme').takeUnhandled!(0, 0)).toEqual([]);
    expect(await after.of('globex').takeUnhandled!(0, 0)).toEqual([{ key: 'g1', body: '{"g":1}' }]);
  });

  it('a handler given up keeps its event for the next start (release keeps the row) and frees its key for a repeat', async () => {
    const base = durable();
    const store = accountDedupe(base, ['acme']).of('acme');
    await store.claim('a1', 10, 0, '{"a":1}');
    await store.release('a1');
    expect(base.rows.get('acme/a1')).toBe('{"a":1}');
    expect(await store.claim('a1', 10, 0, '{"a":1}')).toBe(true);
  });
});
