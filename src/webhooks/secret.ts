// The receiver's only credential. Deliveries are not signed (the reference shows no signature), so
// the secret travels the one way the API allows: inside the subscription URL, as its last path
// segment. Whoever knows the URL can post events; nobody else reaches a handler.
import { InvalidArgumentError } from '../index.js';

/** Shortest secret the receiver accepts: 32 URL-safe characters carry ≥ 190 bits. @internal */
export const MIN_SECRET_LENGTH = 32;
const URL_SAFE = /^[A-Za-z0-9_-]+$/;

/**
 * A new random secret for a receiver's URL: 32 random bytes, base64url (43 characters), from the
 * runtime's cryptographic generator (`crypto.getRandomValues`, in Node, Deno, Bun and Workers).
 *
 * @example
 * ```ts
 * import { generateWebhookSecret } from 'seo-visibility/webhooks';
 * console.log(generateWebhookSecret()); // store it as WEBHOOK_SECRET
 * ```
 */
export function generateWebhookSecret(): string {
  return base64url(crypto.getRandomValues(new Uint8Array(32)));
}

/**
 * `bytes` as unpadded base64url, the URL-safe alphabet every receiver secret is written in (32 bytes:
 * 43 characters). `btoa`, on every runtime.
 * @example `base64url(new Uint8Array([251, 255])) // '-_8'`
 * @internal
 */
export function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

/**
 * Checks a secret (or the list of accepted secrets during a rotation) and returns the list. Fails
 * closed: no secret, a short one, or one with characters a URL would encode is refused at start.
 * @internal
 */
export function checkSecrets(value: unknown): readonly string[] {
  const list = Array.isArray(value) ? (value as unknown[]) : [value];
  if (list.length === 0)
    throw new InvalidArgumentError('secret', 'expected a secret (see generateWebhookSecret()), got an empty list');
  for (const secret of list) {
    if (typeof secret !== 'string' || secret === '') {
      throw new InvalidArgumentError(
        'secret',
        `the receiver refuses to start without a secret: expected a string of at least ${MIN_SECRET_LENGTH} URL-safe characters (generateWebhookSecret() makes one), got ${secret === '' ? 'an empty string' : typeof secret}`,
      );
    }
    // The message never repeats the secret, only what is wrong with it.
    if (secret.length < MIN_SECRET_LENGTH)
      throw new InvalidArgumentError(
        'secret',
        `expected at least ${MIN_SECRET_LENGTH} characters, got ${secret.length} (generateWebhookSecret() makes one)`,
      );
    if (!URL_SAFE.test(secret))
      throw new InvalidArgumentError(
        'secret',
        'expected only the URL-safe characters A-Z, a-z, 0-9, "-" and "_" (generateWebhookSecret() makes one)',
      );
  }
  return list as string[];
}

/**
 * Checks the receiver's `path` (where the URL's secret segment is appended) and returns it as a
 * URL spells it, without a trailing slash (`'/'` becomes `''`). @internal
 */
export function checkPath(value: unknown): string {
  if (typeof value !== 'string' || !value.startsWith('/') || /[?#\s]/.test(value)) {
    throw new InvalidArgumentError(
      'path',
      `expected a URL path starting with "/" (no query, no fragment), such as '/hooks/seo', got ${typeof value === 'string' ? JSON.stringify(value) : typeof value}`,
    );
  }
  // As a request's URL spells it (percent-encoded, dot segments resolved): the receiver compares
  // the path of the URL it receives, so '/hooks/café' must be kept as '/hooks/caf%C3%A9'.
  return new URL(`http://receiver.invalid${value}`).pathname.replace(/\/+$/, '');
}

/**
 * The URL to subscribe: `base` with the secret appended as its last path segment. Give the
 * receiver the same `path` as `base`'s (here `/hooks/seo`) and the same secret.
 *
 * @example
 * ```ts
 * import { generateWebhookSecret, webhookUrl } from 'seo-visibility/webhooks';
 * const secret = generateWebhookSecret(); // once; keep it where the receiver reads it
 * const hookUrl = webhookUrl('https://example.com/hooks/seo', secret); // https://example.com/hooks/seo/<secret>
 * await client.webhooks.create({ url: hookUrl, project_id: projectId, events: ['audit.completed'] });
 * ```
 */
export function webhookUrl(base: string | URL, secret: string): string {
  const [checked] = checkSecrets(secret);
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    throw new InvalidArgumentError('base', 'expected an absolute http(s) URL such as https://example.com/hooks/seo');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new InvalidArgumentError('base', `expected an http(s) URL, got ${url.protocol}`);
  if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    throw new InvalidArgumentError(
      'base',
      'expected a URL without query, fragment or credentials: the secret is the only part the receiver checks',
    );
  }
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/${checked}`;
  return url.href;
}

const encoder = new TextEncoder();

/**
 * Whether `candidate` is `secret`, in time that depends on neither: both are hashed (SHA-256) and
 * the digests compared byte by byte without an early exit. Web Crypto, so it runs on every runtime
 * the Fetch handler does. @internal
 */
export async function sameSecret(candidate: string, secret: string): Promise<boolean> {
  const [a, b] = await Promise.all([
    crypto.subtle.digest('SHA-256', encoder.encode(candidate)),
    crypto.subtle.digest('SHA-256', encoder.encode(secret)),
  ]);
  const x = new Uint8Array(a);
  const y = new Uint8Array(b);
  let difference = 0;
  for (let i = 0; i < x.length; i++) difference |= x[i]! ^ y[i]!;
  return difference === 0;
}
