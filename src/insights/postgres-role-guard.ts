import type { Client } from 'pg';
import { quote } from './dialect.js';
import { InsightError } from './errors.js';

/**
 * The built-in roles whose members can act outside a READ ONLY transaction from a plain SELECT:
 * run a shell command (`COPY … TO PROGRAM`), read or write any server file (`pg_read_file`,
 * `COPY … TO '<file>'`), or end and cancel other sessions (`pg_terminate_backend`).
 */
const ESCAPE_GROUPS = [
  'pg_execute_server_program',
  'pg_read_server_files',
  'pg_write_server_files',
  'pg_signal_backend',
] as const;

/** Functions of the `unsafe` reason the message names at most (an extension may bring hundreds). */
const UNSAFE_NAMED = 10;

/** dblink opens a second connection whose writes no READ ONLY transaction of ours covers. */
const REMOTE_FUNCTIONS = ['dblink', 'dblink_exec', 'dblink_connect', 'dblink_connect_u'] as const;

// Every role this session can become: its login role (session_user) and each role that one is a
// member of, with or without INHERIT, since `set_config('role', …)` inside a SELECT switches to any
// of them (and RESET goes back to the login role, whatever role the connection started as).
const CHECK = `
WITH reach AS (SELECT r.oid, r.rolname::text AS rolname, r.rolsuper, r.rolreplication, r.rolcreaterole FROM pg_roles r WHERE pg_has_role(session_user, r.oid, 'MEMBER'))
SELECT session_user::text AS role, (SELECT rolsuper FROM pg_roles WHERE rolname = session_user) AS superuser,
  ARRAY(SELECT rolname FROM reach WHERE rolsuper AND rolname <> session_user ORDER BY 1) AS superusers,
  ARRAY(SELECT rolname FROM reach WHERE rolreplication ORDER BY 1) AS replication,
  ARRAY(SELECT rolname FROM reach WHERE rolcreaterole ORDER BY 1) AS createrole,
  ARRAY(SELECT g FROM unnest($1::text[]) AS g WHERE EXISTS (SELECT 1 FROM reach WHERE rolname = g) ORDER BY 1) AS groups,
  ARRAY(SELECT DISTINCT pg_get_userbyid(c.relowner)::text FROM pg_class c WHERE c.relnamespace = (SELECT oid FROM pg_namespace WHERE nspname = current_schema()) AND pg_has_role(session_user, c.relowner, 'MEMBER') ORDER BY 1) AS owners,
  ARRAY(SELECT DISTINCT p.proname::text FROM pg_proc p, reach WHERE p.proname = ANY($2::text[]) AND has_function_privilege(reach.oid, p.oid, 'EXECUTE') ORDER BY 1) AS remote,
  ARRAY(SELECT DISTINCT p.oid::regprocedure::text FROM pg_proc p WHERE p.pronamespace = 'pg_catalog'::regnamespace AND p.proacl IS NOT NULL
    AND EXISTS (SELECT 1 FROM aclexplode(p.proacl) a JOIN reach ON a.grantee = reach.oid WHERE a.privilege_type = 'EXECUTE' AND reach.rolname NOT LIKE 'pg\\_%') ORDER BY 1) AS granted,
  ARRAY(SELECT DISTINCT quote_ident(n.nspname) || '.' || quote_ident(p.proname) || '(' || oidvectortypes(p.proargtypes) || ')'
    FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace JOIN pg_language l ON l.oid = p.prolang, reach
    WHERE n.nspname NOT IN ('pg_catalog', 'information_schema') AND p.prokind <> 'p'
      AND has_function_privilege(reach.oid, p.oid, 'EXECUTE') AND has_schema_privilege(reach.oid, n.oid, 'USAGE')
      AND ((p.prosecdef AND NOT pg_has_role(session_user, p.proowner, 'MEMBER')) OR (NOT l.lanpltrusted AND p.provolatile = 'v'))
    ORDER BY 1) AS unsafe`;

interface RoleFacts {
  role: string;
  superuser: boolean;
  superusers: string[];
  replication: string[];
  createrole: string[];
  groups: string[];
  owners: string[];
  remote: string[];
  granted: string[];
  unsafe: string[];
}

/** "it has X" for the login role itself, "it can become Y, which has X" for a role it is a member of. */
const holders = (facts: RoleFacts, roles: string[], what: string) =>
  roles.length === 0
    ? []
    : [
        roles.includes(facts.role)
          ? `it has ${what}`
          : `it can become ${roles.join(', ')} (set_config('role', …) inside a SELECT), which has ${what}`,
      ];

/**
 * Refuses a role an agent's SQL could misuse. `BEGIN READ ONLY` stops writes to tables, not what a
 * privileged role may do from a SELECT: a superuser or a member of pg_execute_server_program,
 * pg_read_server_files or pg_write_server_files reads server files and runs shell commands; a member
 * of pg_signal_backend, or the role that owns the store's tables (the sync's role), ends the sync's
 * session; a REPLICATION role creates slots that hold WAL forever; CREATEROLE can grant itself the
 * groups above; dblink writes through a second connection; a built-in function PostgreSQL keeps from
 * PUBLIC (pg_read_file, pg_ls_dir, lo_import…) may have been granted to the role itself (not
 * through a built-in pg_* role such as pg_monitor, whose functions only list). A role switch (SET ROLE) is no cure:
 * the session may switch to its login role, or any role that one is a member of, from inside a
 * SELECT (`set_config('role', …)`), and `query_to_xml` then runs SQL planned after the switch. So
 * the facts are those of every role the login role can become, not of the current role only (a
 * connection that starts as a reader through `options=-c role=…` or `ALTER ROLE … SET role` is
 * judged by its login role), and the server only serves a login that can do nothing but read.
 *
 * Beyond pg_catalog, the rule for functions is by what PostgreSQL knows of them, not by name: a
 * function the login (or PUBLIC) may execute, in a schema it may use, is refused when it runs with
 * another role's rights (SECURITY DEFINER, owned by a role the login cannot become: a superuser's
 * function reads server files for anyone), or when it is written in an untrusted language (C,
 * internal, plpython3u…) and VOLATILE (dblink_exec, or an alias of pg_read_file that PUBLIC may
 * call). Trusted-language functions that run as the caller do only what the caller's own SQL can;
 * IMMUTABLE and STABLE untrusted ones (pgcrypto's digest, PostGIS) declare they change nothing.
 * The facts are read at every (re)connection: a function created later is judged at the next one.
 * @internal
 */
export async function refuseUnsafeRole(client: Client, schema: string): Promise<void> {
  const { rows } = await client.query<RoleFacts>(CHECK, [ESCAPE_GROUPS, REMOTE_FUNCTIONS]);
  const facts = rows[0];
  if (!facts) throw new InsightError('connect', 'Cannot read the connected role from pg_roles');
  // A superuser login can become every role: the one reason says it all.
  const reasons = facts.superuser
    ? ['it is a superuser (it may read server files and run shell commands from a SELECT)']
    : [
        ...(facts.superusers.length
          ? [
              `it can become the superuser role ${facts.superusers.join(', ')} (set_config('role', …) inside a SELECT; it may then read server files and run shell commands)`,
            ]
          : []),
        ...facts.groups.map(
          (g) =>
            `it is a member of ${g}${g === 'pg_signal_backend' ? ' (it may end other sessions, the sync among them)' : ' (it may reach server files or programs from a SELECT)'}`,
        ),
        ...holders(facts, facts.replication, 'REPLICATION (it may create replication slots that hold WAL forever)'),
        ...holders(facts, facts.createrole, 'CREATEROLE (it may grant itself any of the above)'),
        ...(facts.owners.length
          ? [
              `it owns the store's tables or is a member of their owner ${facts.owners.join(', ')} (the sync's role: it may end the sync's session or hold its locks)`,
            ]
          : []),
        ...(facts.remote.length
          ? [`it may call ${facts.remote.join(', ')} (a second connection outside the read-only transaction)`]
          : []),
        // A built-in function kept from PUBLIC (pg_read_file, pg_ls_dir, lo_import…) that an administrator granted to it.
        ...(facts.granted.length
          ? [
              `it may call ${facts.granted.join(', ')}, granted to it although PostgreSQL keeps it from PUBLIC (server files, other sessions or the server's state)`,
            ]
          : []),
        // Functions beyond pg_catalog (an extension's, a user's) that run outside what READ ONLY holds.
        ...(facts.unsafe.length
          ? [
              `it may call ${facts.unsafe.slice(0, UNSAFE_NAMED).join(', ')}${facts.unsafe.length > UNSAFE_NAMED ? ` and ${facts.unsafe.length - UNSAFE_NAMED} more` : ''}, which run with another role's rights (SECURITY DEFINER) or in an untrusted language and are VOLATILE (they may act outside the read-only transaction): revoke EXECUTE on them from this role and PUBLIC, or move them to a schema it has no USAGE on`,
            ]
          : []),
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
