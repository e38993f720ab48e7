import { describe, expect, it } from 'vitest';
import { statementKind } from '../../src/insights/statement-kind.js';

// The PostgreSQL reader caps every query by wrapping it; what it cannot wrap must be a small
// answer (SHOW, EXPLAIN) or is refused. The first word is found past comments and parentheses:
// the first row cap looked only at `^select|with|values|table` and skipped any other start.
describe('statementKind', () => {
  it.each([
    ['SELECT 1', 'rows'],
    ['  with x AS (SELECT 1) SELECT * FROM x', 'rows'],
    ['/* why */ SELECT 1', 'rows'],
    ['/* a /* nested */ still */ SELECT 1', 'rows'],
    ['-- why\nSELECT 1', 'rows'],
    ['((SELECT 1))', 'rows'],
    ['( /* c */ VALUES (1))', 'rows'],
    ['TABLE projects_list', 'rows'],
    ['SHOW search_path', 'describe'],
    ['/* c */ EXPLAIN SELECT 1', 'describe'],
    ['COPY t TO PROGRAM $$id$$', 'other'],
    ['/* c */ COPY t TO STDOUT', 'other'],
    ['CALL p()', 'other'],
    ['SET ROLE postgres', 'other'],
    ['-- only a comment', 'other'],
    ['selectx FROM t', 'other'],
  ])('%s → %s', (sql, kind) => {
    expect(statementKind(sql)).toBe(kind);
  });
});
