import { isFleet } from './account-choice.js';
import { Sql } from './dialect.js';
import { InsightError } from './errors.js';
import type { InsightSource, QueryLimits } from './source.js';

/** How many projects an "unknown project" message lists at most (an agency holds hundreds). */
const LISTED = 30;

/** A project as a tool names it: its id, and its account in a fleet warehouse (undefined in a store of one account). @internal */
export interface ChosenProject {
  id: string;
  account: string | undefined;
}

/**
 * The project `given` names: its id, or its name (case and surrounding blanks aside), within
 * `account` when given. An unknown one is refused with the valid choices, so an agent never reads
 * "no rows" as "no movement"; so is a name two projects share, and, in a fleet warehouse, a name
 * or id found in two accounts (the refusal names the accounts: pass `account`). Projects of two
 * accounts are never merged, even with the same id.
 * @example `await chooseProject(source, 'Acme Outdoor', { account: 'acme' })` is `{ id: '3f6c…', account: 'acme' }`, or an InsightError listing the projects
 * @internal
 */
export async function chooseProject(
  source: InsightSource,
  given: string,
  scope: { account?: string | undefined } = {},
  limits: QueryLimits = {},
): Promise<ChosenProject> {
  const fleet = isFleet(source);
  const sql = new Sql(source.dialect, source.columns);
  const id = sql.text('p', 'projects_list', 'id');
  const name = sql.col('p', 'projects_list', 'name');
  const account = fleet ? sql.text('p', 'projects_list', 'account_id') : 'NULL';
  const only = fleet && scope.account !== undefined;
  const { rows } = await source.query(
    `SELECT ${account} AS account_id, ${id} AS id, ${name} AS name FROM projects_list p WHERE ${sql.current('p', 'projects_list')}${only ? ` AND ${account} = ?` : ''} ORDER BY ${name}, ${id}${fleet ? `, ${account}` : ''}`,
    only ? [scope.account] : [],
    limits,
  );
  const projects = rows.map((r) => ({
    id: String(r['id']),
    name: r['name'] == null ? '' : String(r['name']),
    account: r['account_id'] == null ? undefined : String(r['account_id']),
  }));
  const accounts = new Set(projects.map((p) => p.account));
  const label = (p: (typeof projects)[number]) =>
    `${JSON.stringify(p.name)} (${p.id}${accounts.size > 1 ? `, account ${p.account}` : ''})`;
  const list = (ps: typeof projects) =>
    ps.slice(0, LISTED).map(label).join(', ') +
    (ps.length > LISTED
      ? `, and ${ps.length - LISTED} more (the sql tool lists them: SELECT ${fleet ? 'account_id, ' : ''}id, name FROM projects_list)`
      : '');
  const pick = (p: (typeof projects)[number]): ChosenProject => ({ id: p.id, account: p.account });
  const byId = projects.filter((p) => p.id === given);
  if (byId.length === 1) return pick(byId[0] as (typeof projects)[number]);
  if (byId.length > 1)
    throw new InsightError(
      'usage',
      `The project ${given} is in ${byId.length} accounts: pass account, one of ${byId.map((p) => p.account).join(', ')}`,
    );
  const wanted = given.trim().toLowerCase();
  const named = projects.filter((p) => p.name.trim().toLowerCase() === wanted);
  if (named.length === 1) return pick(named[0] as (typeof projects)[number]);
  if (named.length > 1) {
    const where = new Set(named.map((p) => p.account));
    const hint =
      where.size > 1 ? `pass account (one of ${[...where].join(', ')}) or one of their ids` : 'pass one of their ids';
    throw new InsightError(
      'usage',
      `${named.length} projects are named ${JSON.stringify(given)}${where.size > 1 ? ` in ${where.size} accounts` : ''}: ${hint}: ${list(named)}`,
    );
  }
  const within = only ? ` in account ${scope.account}` : '';
  throw new InsightError(
    'usage',
    projects.length
      ? `No project${within} has the id or name ${JSON.stringify(given)}. The projects: ${list(projects)}`
      : `No project${within} has the id or name ${JSON.stringify(given)}: the store holds no projects yet (run a sync)`,
  );
}
