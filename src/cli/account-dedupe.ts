// One durable dedupe table shared by the receivers of every account of a fleet `listen`. Keys are
// prefixed with the account id, so one account's event never counts as another's repeat, and the
// events a killed process acknowledged are recovered for the account that received them: one
// `takeUnhandled` at start, split by account, instead of each account's receiver taking them all.
import type { WebhookDedupeStore } from '../webhooks/index.js';
import type { ReopenableDedupeStore } from '../webhooks/postgres-dedupe-store.js';

/** The receivers' stores, one per account, over one durable store. @internal */
export interface AccountDedupe {
  /** The store of `accountId`'s receiver. */
  of(accountId: string): WebhookDedupeStore;
  /**
   * Takes every acknowledged, unhandled event (claimed before `before`) once, for the accounts'
   * stores to hand to their receivers' `recover()`. Resolves with the events of accounts no longer
   * configured (left in the table, for a start that has them again).
   */
  takeUnhandled(before: number, now: number): Promise<number>;
}

/**
 * Scopes `base` per account. A handler given up (or a claim that landed after its delivery was
 * answered 503) frees its key, so the sender's repeat of the delivery queues it; over a store that
 * can `reopen`, its body stays in the table too, and the next start queues it if no repeat came (the
 * enqueue is idempotent), so an acknowledged event is never lost to a queue that was down for a moment.
 * @example `const dedupe = accountDedupe(postgresDedupeStore(url), ['acme']); createWebhookReceiver({ secret, dedupe: dedupe.of('acme') })`
 * @internal
 */
export function accountDedupe(
  base: WebhookDedupeStore & Partial<Pick<ReopenableDedupeStore, 'reopen'>>,
  accountIds: readonly string[],
): AccountDedupe {
  const scoped = (accountId: string, key: string) => `${accountId}/${key}`;
  const recovered = new Map<string, Array<{ key: string; body: string }>>();
  return {
    of(accountId) {
      return {
        claim: (key, expiresAt, now, body) => base.claim(scoped(accountId, key), expiresAt, now, body),
        release: (key) => (base.reopen ? base.reopen(scoped(accountId, key)) : base.release(scoped(accountId, key))),
        handled: async (key) => base.handled?.(scoped(accountId, key)),
        async takeUnhandled() {
          const taken = recovered.get(accountId) ?? [];
          recovered.delete(accountId);
          return taken;
        },
      };
    },
    async takeUnhandled(before, now) {
      const rows = (await base.takeUnhandled?.(before, now)) ?? [];
      let unclaimed = 0;
      for (const { key, body } of rows) {
        const slash = key.indexOf('/');
        const accountId = key.slice(0, Math.max(slash, 0));
        if (!accountIds.includes(accountId)) {
          unclaimed++;
          continue;
        }
        const list = recovered.get(accountId) ?? [];
        list.push({ key: key.slice(slash + 1), body });
        recovered.set(accountId, list);
      }
      return unclaimed;
    },
  };
}
