/**
 * A message with the Postgres URL's password masked, wherever a driver may have quoted it.
 * @example `withoutPassword('auth failed for s3cret', 'postgres://u:s3cret@db/x') // 'auth failed for ***'`
 * @internal
 */
export function withoutPassword(message: string, url: string | undefined): string {
  let password = '';
  try {
    password = url ? decodeURIComponent(new URL(url).password) : '';
  } catch {
    // not a URL: nothing to mask
  }
  return password ? message.split(password).join('***') : message;
}
