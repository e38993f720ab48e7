import { describe, expect, it } from 'vitest';
import { assertOneStatement, oneStatement } from '../../src/insights/one-statement.js';

// Valid SQL that the first splitter refused as two statements: a `;` inside PostgreSQL's
// dollar-quoted and E'' strings, and inside nested block comments. What runs is the statement
// without its terminating `;` and the comments after it.
describe('oneStatement: quoting the splitter once missed', () => {
  it.each([
    ['SELECT $$a;b$$ AS x', 'SELECT $$a;b$$ AS x'],
    ["SELECT $fn$ it's; $$ $fn$ AS x;", "SELECT $fn$ it's; $$ $fn$ AS x"],
    ["SELECT E'it\\'s; here' AS x", "SELECT E'it\\'s; here' AS x"],
    ["SELECT e'\\\\'; -- a backslash, then the end", "SELECT e'\\\\'"],
    ['SELECT 1 /* a /* nested; */ still; */ AS x', 'SELECT 1 /* a /* nested; */ still; */ AS x'],
    ['SELECT 1 AS x; -- the end; really', 'SELECT 1 AS x'],
    ['SELECT 1 AS x; /* done; */  ', 'SELECT 1 AS x'],
    ['SELECT $1::int AS x; ', 'SELECT $1::int AS x'],
  ])('PostgreSQL: %s', (sql, statement) => {
    expect(oneStatement(sql, 'postgres')).toBe(statement);
  });

  it.each([
    ['SELECT [odd;name] FROM t;', 'SELECT [odd;name] FROM t'],
    ["SELECT 'it''s; fine' AS x; -- c", "SELECT 'it''s; fine' AS x"],
  ])('SQLite: %s', (sql, statement) => {
    expect(oneStatement(sql, 'sqlite')).toBe(statement);
  });

  it.each([
    'SELECT $$a$$; DELETE FROM t',
    "SELECT E'\\''; DROP TABLE t",
    'SELECT 1 /* a /* b */ */; COMMIT',
    'SELECT 1; -- c\nDELETE FROM t',
    "SELECT 1; SELECT '--'",
  ])('still refuses two in PostgreSQL: %s', (sql) => {
    expect(() => assertOneStatement(sql, 'postgres')).toThrow('The sql tool runs one statement at a time');
  });

  it('SQLite block comments do not nest: what follows the first */ is SQL', () => {
    expect(() => assertOneStatement('SELECT 1 /* a /* b */ ; DELETE FROM t; */', 'sqlite')).toThrow(
      'one statement at a time',
    );
  });
});
