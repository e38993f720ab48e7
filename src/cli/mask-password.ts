/**
 * A message with the Postgres URL's password masked, wherever a driver may have quoted it: decoded
 * (a driver's own wording), or percent-encoded as the URL holds it (a message quoting the URL; a
 * password with `@`, `/` or `%` in it is written encoded there). A stray `%` that does not decode
 * still leaves the encoded form to mask.
 * @example `withoutPassword('auth failed for p@ss at postgres://u:p%40ss@db/x', 'postgres://u:p%40ss@db/x') // 'auth failed for *** at postgres://u:***@db/x'`
 * @internal
 */
export function withoutPassword(message: string, url: string | undefined): string {
  let encoded = '';
  try {
    encoded = url ? new URL(url).password : '';
  } catch {
    // not a URL: nothing to mask
  }
  let decoded = encoded;
  try {
    decoded = decodeURIComponent(encoded);
  } catch {
    // not decodable: the encoded form is the one a message can quote
  }
  let out = message;
  for (const secret of [decoded, encoded]) if (secret) out = out.split(secret).join('***');
  return out;
}
