import type { Client } from 'pg';
import { quote } from './dialect.js';
import { InsightError } from './errors.js';

/**
 * The built-in roles whose members can act outside a READ ONLY transaction from a plain SELECT:
 * run a shell command (`COPY … TO PROGRAM`), read or write any server file (`pg_read_file`,
 * `COPY … TO '<file>'`), or end and cancel other sessions (`pg_terminate_backend`).
 */
const ESCAPE_GROUPS = ['pg_execute_server_program', 'pg_read_server_files', 'pg_write_server_files', 'pg_signal_backend'] as const;

/** dblink opens a second connection whose writes no READ ONLY transaction of ours covers. */
const REMOTE_FUNCTIONS = ['dblink', 'dblink_exec', 'dblink_connect', 'dblink_connect_u'] as const;

const CHECK = `
SELECT r.rolname AS role, r.rolsuper AS superuser, r.rolreplication AS replication, r.rolcreaterole AS createrole,
  ARRAY(SELECT g.rolname::text FROM pg_roles g WHERE g.rolname = ANY($1::text[]) AND pg_has_role(r.oid, g.oid, 'MEMBER') ORDER BY 1) AS groups,
  ARRAY(SELECT DISTINCT pg_get_userbyid(c.relowner)::text FROM pg_class c WHERE c.relnamespace = (SELECT oid FROM pg_namespace WHERE nspname = current_schema()) AND pg_has_role(r.oid, c.relowner, 'MEMBER') ORDER BY 1) AS owners,
  ARRAY(SELECT DISTINCT p.proname::text FROM pg_proc p WHERE p.proname = ANY($2::text[]) AND has_function_privilege(r.oid, p.oid, 'EXECUTE') ORDER BY 1) AS remote
FROM pg_roles r WHERE r.rolname = current_user`;

interface RoleFacts {
  role: string;
  superuser: boolean;
  replication: boolean;
  createrole: boolean;
  groups: string[];
  owners: string[];
  remote: string[];
}

/**
 * Refuses a role an agent's SQL could misuse. `BEGIN READ ONLY` stops writes to tables, not what a
 * privileged role may do from a SELECT: a superuser or a member of pg_execute_server_program,
 * pg_read_server_files or pg_write_server_files reads server files and runs shell commands; a member
 * of pg_signal_backend, or the role that owns the store's tables (the sync's role), ends the sync's
 * session; a REPLICATION role creates slots that hold WAL forever; CREATEROLE can grant itself the
 * groups above; dblink writes through a second connection. A role switch (SET ROLE) is no cure:
 * the session's own role may switch back from inside a SELECT (`set_config('role', …)`). So the
 * server only serves a role that can do nothing but read, and says how to make one.
 * @internal
 */
export async function refuseUnsafeRole(client: Client, schema: string): Promise<void> {
  const { rows } = await client.query<RoleFacts>(CHECK, [ESCAPE_GROUPS, REMOTE_FUNCTIONS]);
  const facts = rows[0];
  if (!facts) throw new InsightError('connect', 'Cannot read the connected role from pg_roles');
  const reasons = [
    ...(facts.superuser ? ['it is a superuser (it may read server files and run shell commands from a SELECT)'] : []),
    ...facts.groups.map((g) => `it is a member of ${g}${g === 'pg_signal_backend' ? ' (it may end other sessions, the sync among them)' : ' (it may reach server files or programs from a SELECT)'}`),
    ...(facts.replication ? ['it has REPLICATION (it may create replication slots that hold WAL forever)'] : []),
    ...(facts.createrole ? ['it has CREATEROLE (it may grant itself any of the above)'] : []),
    ...(facts.owners.length ? [`it owns the store's tables or is a member of their owner ${facts.owners.join(', ')} (the sync's role: it may end the sync's session or hold its locks)`] : []),
    ...(facts.remote.length ? [`it may call ${facts.remote.join(', ')} (a second connection outside the read-only transaction)`] : []),
  ];
  if (!reasons.length) return;
  const s = quote(schema);
  throw new InsightError(
    'connect',
    `seo-visibility mcp serves an agent's SQL only as a role that can do nothing but read, and the role "${facts.role}" can do more: ${reasons.join('; ')}. ` +
      `Connect as a role made for it, e.g. (as an administrator): CREATE ROLE seo_agent LOGIN PASSWORD '…'; GRANT USAGE ON SCHEMA ${s} TO seo_agent; ` +
      `GRANT SELECT ON ALL TABLES IN SCHEMA ${s} TO seo_agent; ALTER DEFAULT PRIVILEGES FOR ROLE <the sync's role> IN SCHEMA ${s} GRANT SELECT ON TABLES TO seo_agent;`,
  );
}
