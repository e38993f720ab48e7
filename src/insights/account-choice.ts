import { InsightError } from './errors.js';
import type { InsightSource, QueryLimits, ResultRow } from './source.js';

/** How many accounts an "unknown account" message lists at most (a fleet may hold hundreds). */
const LISTED = 30;

/**
 * Whether the store is a fleet warehouse: many accounts in one schema, every table carrying
 * `account_id` (`postgresStore(url, { accountId })`). A store of one account has no such column.
 * @example `isFleet(source)` is `true` over `seo_visibility_fleet`
 * @internal
 */
export function isFleet(source: InsightSource): boolean {
  return source.columns.get('projects_list')?.has('account_id') ?? false;
}

/**
 * A project's key in maps of rows: its account and id, so one project id in two accounts of a fleet
 * warehouse is two projects (an account of null, undefined or '' is a store of one account).
 * @example `projectKey(row['account_id'], row['project_id'])`
 * @internal
 */
export function projectKey(account: unknown, project: unknown): string {
  return `${account === null || account === undefined ? '' : String(account)}\u0000${String(project)}`;
}

/**
 * The accounts a fleet warehouse holds (those with a project), sorted; `[]` in a store of one account.
 * @example `await heldAccounts(source)` is `['acme', 'globex']`
 * @internal
 */
export async function heldAccounts(source: InsightSource, limits: QueryLimits = {}): Promise<string[]> {
  if (!isFleet(source)) return [];
  const { rows } = await source.query('SELECT DISTINCT account_id FROM projects_list ORDER BY account_id', [], limits);
  return rows.map((r) => String(r['account_id']));
}

/**
 * Refuses an account the store cannot answer for, naming the accounts it holds: a store of one
 * account (no account_id to filter on), or an id the warehouse does not hold. `argument` names
 * where the value came from, as the user wrote it (`--account` on the command line, `account` in
 * an MCP tool call).
 * @example `await checkAccount(source, 'initech')` throws `--account initech: the warehouse holds no such account; it holds acme, globex`
 * @internal
 */
export async function checkAccount(
  source: InsightSource,
  account: string,
  argument = '--account',
  limits: QueryLimits = {},
): Promise<void> {
  if (!isFleet(source))
    throw new InsightError(
      'usage',
      `${argument} ${account}: this store holds one account (its tables have no account_id column); leave ${argument} out`,
    );
  const held = await heldAccounts(source, limits);
  if (held.includes(account)) return;
  const listed =
    held.slice(0, LISTED).join(', ') +
    (held.length > LISTED ? `, and ${held.length - LISTED} more (SELECT DISTINCT account_id FROM projects_list)` : '');
  throw new InsightError(
    'usage',
    `${argument} ${account}: the warehouse holds no such account; it holds ${listed || 'none yet'}`,
  );
}

/**
 * The projects of a scope, one row each: `account_id` (null in a store of one account), `project_id`
 * and `name`, account by account, then by name. `account` filters a fleet warehouse only (check it
 * with {@link checkAccount} first: a store of one account is refused there); `project` is an id.
 * @example `await projectsInScope(source, { account: 'acme' })` is `[{ account_id: 'acme', project_id: '3f6c…', name: 'Acme Outdoor' }, …]`
 * @internal
 */
export async function projectsInScope(
  source: InsightSource,
  scope: { account?: string | undefined; project?: string | undefined },
): Promise<ResultRow[]> {
  const fleet = isFleet(source);
  const byAccount = fleet && scope.account !== undefined;
  const where = [...(byAccount ? ['account_id = ?'] : []), ...(scope.project ? ['id = ?'] : [])];
  const params = [...(byAccount ? [scope.account] : []), ...(scope.project ? [scope.project] : [])];
  const { rows } = await source.query(
    `SELECT ${fleet ? 'account_id' : 'NULL'} AS account_id, id AS project_id, name FROM projects_list ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY ${fleet ? 'account_id, ' : ''}name, id`,
    params,
  );
  return rows;
}
