import { describe, expect, it } from 'vitest';
import { assertOneStatement, numberedParameters } from '../../src/insights/one-statement.js';

describe('assertOneStatement', () => {
  it.each([
    'SELECT 1',
    'SELECT 1;',
    'SELECT 1;  \n ;',
    "SELECT 'a;b' AS x",
    'SELECT "odd;name" FROM t',
    'SELECT 1 -- trailing; comment',
    'SELECT 1; -- a comment after the end',
    'SELECT /* ; */ 1',
  ])('lets one statement through: %s', (sql) => {
    expect(() => assertOneStatement(sql)).not.toThrow();
  });

  it.each([
    'SELECT 1; DELETE FROM t',
    "SELECT ';'; DROP TABLE t",
    'SELECT 1;/* x */ COMMIT',
    'SELECT 1 -- c\n; UPDATE t SET x = 1',
  ])('refuses two: %s', (sql) => {
    expect(() => assertOneStatement(sql)).toThrow(
      'The sql tool runs one statement at a time: send each statement in its own call',
    );
  });
});

describe('numberedParameters', () => {
  it('numbers the ? placeholders PostgreSQL is sent as $1, $2, … in order, and leaves a ? in a string, quoted name, dollar quote or comment as written', () => {
    expect(
      numberedParameters(
        `SELECT '?' AS "why?", $q$?$q$ AS d, E'\\'?' AS e, ? AS p /* ? */ FROM t WHERE x = ? -- ?\n AND y = ?`,
      ),
    ).toBe(`SELECT '?' AS "why?", $q$?$q$ AS d, E'\\'?' AS e, $1 AS p /* ? */ FROM t WHERE x = $2 -- ?\n AND y = $3`);
  });
});
