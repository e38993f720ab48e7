// Fleet mode of `listen` and `webhooks ensure`: one receiver URL per account, each with its own
// secret, derived from the one secret in SEO_VISIBILITY_WEBHOOK_SECRET. Whoever can read one
// account's subscriptions (its key's holders: the URL is shown to them) learns that account's URL
// only; another account's secret cannot be computed from it, so a URL leaked by one account cannot
// post events for another. One variable to keep, and changing it rotates every account's URL.

import { base64url } from '../webhooks/secret.js';

/** What the HMAC signs beside the account id: a fixed label, so these secrets serve nothing else. */
const LABEL = 'seo-visibility webhook account secret v1\u0000';

/**
 * The URL secret of `accountId`: HMAC-SHA-256 of the account id under the main secret, base64url
 * (43 URL-safe characters, as `generateWebhookSecret()` makes). Web Crypto, on every runtime.
 * @example `await accountWebhookSecret(process.env.SEO_VISIBILITY_WEBHOOK_SECRET!, 'acme')`
 * @internal
 */
export async function accountWebhookSecret(mainSecret: string, accountId: string): Promise<string> {
  const encoder = new TextEncoder();
  const key = await crypto.subtle.importKey(
    'raw',
    encoder.encode(mainSecret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  return base64url(new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(`${LABEL}${accountId}`))));
}

/**
 * The receiver path of one account: the account id is a path segment after the shared path, and
 * the account's secret follows it (`/hooks/seo/acme/<secret>`). Account ids are letters, digits,
 * `.`, `_` and `-` (the fleet checks them), so they need no encoding.
 * @example `accountHookPath('/hooks/seo', 'acme') // '/hooks/seo/acme'`
 * @internal
 */
export function accountHookPath(path: string, accountId: string): string {
  return `${path.replace(/\/+$/, '')}/${accountId}`;
}
