// Two ensureWebhooks at once (two deploys, two replicas starting) can both find no subscription
// and both create one: the API has no idempotency key. So a run that created re-reads the list,
// and every run that sees duplicates keeps the same one (the earliest created, then the lowest
// id): the racers agree without talking, and whichever deletes last leaves exactly one.
import { isNotFoundError, type SeoVisibilityClient, type WebhookSubscription } from '../index.js';

/**
 * Orders subscriptions so the one to keep comes first, the same for every racer: earliest
 * `created_at` (a record without one comes after those with one), then the lowest `id`.
 * @internal
 */
export function keepFirst(a: WebhookSubscription, b: WebhookSubscription): number {
  const at = (h: WebhookSubscription) => (typeof h.created_at === 'string' ? Date.parse(h.created_at) : Number.NaN);
  const ta = at(a);
  const tb = at(b);
  if (ta !== tb && !(Number.isNaN(ta) && Number.isNaN(tb))) {
    if (Number.isNaN(ta)) return 1;
    if (Number.isNaN(tb)) return -1;
    return ta - tb;
  }
  return String(a.id) < String(b.id) ? -1 : String(a.id) > String(b.id) ? 1 : 0;
}

/**
 * Deletes a duplicate; one a racer already deleted (404) is gone either way.
 * @internal
 */
export async function deleteDuplicate(client: SeoVisibilityClient, id: string): Promise<boolean> {
  try {
    await client.webhooks.delete(id);
    return true;
  } catch (error) {
    if (isNotFoundError(error)) return false;
    throw error;
  }
}
