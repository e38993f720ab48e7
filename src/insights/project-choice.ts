import { Sql } from './dialect.js';
import { InsightError } from './errors.js';
import type { InsightSource, QueryLimits } from './source.js';

/** How many projects an "unknown project" message lists at most (an agency holds hundreds). */
const LISTED = 30;

/**
 * The id of the project `given` names: its id, or its name (case and surrounding blanks aside).
 * An unknown one, or a name two projects share, is refused with the valid choices, so an agent
 * never reads "no rows" as "no movement".
 * @example `await projectId(source, 'Acme Outdoor')` is `'3f6c…'`, or an InsightError listing the projects
 * @internal
 */
export async function projectId(source: InsightSource, given: string, limits: QueryLimits = {}): Promise<string> {
  const sql = new Sql(source.dialect, source.columns);
  const id = sql.text('p', 'projects_list', 'id');
  const name = sql.col('p', 'projects_list', 'name');
  const { rows } = await source.query(`SELECT ${id} AS id, ${name} AS name FROM projects_list p WHERE ${sql.current('p', 'projects_list')} ORDER BY ${name}, ${id}`, [], limits);
  const projects = rows.map((r) => ({ id: String(r['id']), name: r['name'] == null ? '' : String(r['name']) }));
  if (projects.some((p) => p.id === given)) return given;
  const wanted = given.trim().toLowerCase();
  const named = projects.filter((p) => p.name.trim().toLowerCase() === wanted);
  if (named.length === 1) return (named[0] as { id: string }).id;
  const list = (ps: typeof projects) => ps.slice(0, LISTED).map((p) => `${JSON.stringify(p.name)} (${p.id})`).join(', ') + (ps.length > LISTED ? `, and ${ps.length - LISTED} more (the sql tool lists them: SELECT id, name FROM projects_list)` : '');
  if (named.length > 1) throw new InsightError('usage', `${named.length} projects are named ${JSON.stringify(given)}: pass one of their ids: ${list(named)}`);
  throw new InsightError('usage', projects.length ? `No project has the id or name ${JSON.stringify(given)}. The projects: ${list(projects)}` : `No project has the id or name ${JSON.stringify(given)}: the store holds no projects yet (run a sync)`);
}
