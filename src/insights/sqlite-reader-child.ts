/**
 * The program of the child process that reads a SQLite store for the insight commands, as source
 * text run with `node -e`. SQLite statements cannot be interrupted from JavaScript (node:sqlite has
 * no interrupt, and terminating a worker thread does not stop a running step), so a statement over
 * its time limit is stopped by killing this process, which holds nothing but a read-only handle.
 *
 * The database is opened `readOnly`; a statement that returns no columns is refused before it runs;
 * and (where node:sqlite has setAuthorizer) an authorizer lets statements read only: SELECT, reads of
 * tables and views, functions, recursive CTEs and PRAGMA reads (a PRAGMA with no argument, or one that
 * describes a table or index: table_info, index_list…). The
 * temporary insight views are created before the authorizer is set. Under a size cap, SQLite's length
 * limit stops a huge value while it is computed, before it reaches JavaScript (where node:sqlite
 * has `limits`, Node 24+).
 * @internal
 */
export const SQLITE_READER_PROGRAM = `
const { DatabaseSync, constants } = require('node:sqlite');
let db;
const SQLITE_TOOBIG = 18;
const CELL_FLOOR = 16000000;
const reply = (message) => process.send(message);
const failure = (id, error) => reply({ id, error: String(error && error.message || error), errcode: error && error.errcode });
process.on('message', (m) => {
  try {
    if (m.open) {
      db = new DatabaseSync(m.open, { readOnly: true });
      return reply({ id: m.id, rows: [], truncated: false });
    }
    if (m.exec) {
      for (const statement of m.exec) db.exec(statement);
      return reply({ id: m.id, rows: [], truncated: false });
    }
    if (m.lock) {
      if (typeof db.setAuthorizer === 'function') {
        const c = constants;
        const allowed = new Set([c.SQLITE_SELECT, c.SQLITE_READ, c.SQLITE_FUNCTION, c.SQLITE_RECURSIVE]);
        const describes = new Set(['table_info', 'table_xinfo', 'table_list', 'index_list', 'index_info', 'index_xinfo', 'foreign_key_list']);
        const pragmaRead = (name, argument) => argument == null || describes.has(String(name).toLowerCase());
        db.setAuthorizer((action, arg1, arg2) => (allowed.has(action) || (action === c.SQLITE_PRAGMA && pragmaRead(arg1, arg2)) ? c.SQLITE_OK : c.SQLITE_DENY));
      }
      return reply({ id: m.id, rows: [], truncated: false });
    }
    const statement = db.prepare(m.sql);
    // A statement that returns no columns is no query (DELETE, CREATE, ATTACH, PRAGMA x = y): refused
    // before it runs, where the authorizer is missing (older Node) as where it is there.
    if (typeof statement.columns === 'function' && statement.columns().length === 0) {
      return reply({ id: m.id, error: 'not a query: only statements that return rows run here', errcode: 23 });
    }
    const rows = [];
    let cutBy;
    // The size cap is counted as rows arrive, so a result of huge values is never sent whole.
    let size = 2;
    // And no value far past it is built at all: SQLite refuses a string or BLOB longer than its
    // length limit (SQLITE_TOOBIG) while computing it, before it reaches JavaScript (a 400 MB
    // zeroblob peaked the child at 810 MB). The limit is the cap, or 16 MB when the cap is smaller,
    // so a value a little over the cap is still cut by the count below, and a query's intermediate
    // strings (a group_concat that is then measured) have room. Restored for the next statement.
    const limited = m.maxBytes !== undefined && db.limits !== undefined;
    const limit = limited ? db.limits.length : undefined;
    if (limited) db.limits.length = Math.max(Math.trunc(m.maxBytes) + 1, CELL_FLOOR);
    try {
    for (const row of statement.iterate(...m.params)) {
      if (rows.length >= m.maxRows) { cutBy = 'rows'; break; }
      if (m.maxBytes !== undefined) {
        // A BLOB counts as its hex text (2 characters a byte), never through JSON.stringify, which
        // writes a Uint8Array as one key per byte: 50 MB of zeroblob outlasted the time limit.
        let blobs = 0;
        const json = JSON.stringify(row, (_k, v) => {
          if (typeof v === 'bigint') return v.toString();
          if (v instanceof Uint8Array) { blobs += 2 * v.byteLength + 4; return ''; }
          return v;
        });
        size += json.length + blobs + 1;
        if (size > m.maxBytes) { cutBy = 'bytes'; break; }
      }
      rows.push({ ...row });
    }
    } catch (error) {
      // A value over the length limit: the rows so far, cut by bytes as a row over the cap is.
      if (!limited || error.errcode !== SQLITE_TOOBIG) throw error;
      cutBy = 'bytes';
    } finally {
      if (limited) db.limits.length = limit;
    }
    // The columns read straight from a timestamp column of the store (aliased or not): SQLite
    // keeps the API's text, and the output reads them as UTC ISO, as PostgreSQL's timestamptz.
    let timestamps;
    if (m.timestampColumns && typeof statement.columns === 'function') {
      const known = new Set(m.timestampColumns);
      timestamps = statement.columns().filter((c) => c.table && c.column && known.has(c.table + '.' + c.column)).map((c) => c.name);
    }
    reply({ id: m.id, rows, truncated: cutBy !== undefined, cutBy, timestamps });
  } catch (error) {
    failure(m.id, error);
  }
});
process.on('disconnect', () => process.exit(0));
`;
