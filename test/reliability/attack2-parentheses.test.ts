/**
 * Attack (session 2): the lexer that keeps an agent's statement inside the caps' wrapper. It must
 * see a parenthesis that closes the wrapper wherever PostgreSQL would, and none inside strings,
 * quoted names, dollar quotes or comments.
 */
import { describe, it } from 'vitest';
import { balancedParentheses } from '../../src/insights/one-statement.js';
import { useReport } from './support/report.js';

const report = useReport('attack2-parentheses');

describe('balancedParentheses', () => {
  it.each([
    ['SELECT 1 AS a) AS seo_visibility_row UNION ALL SELECT 2 FROM (SELECT 1 AS a', false],
    ['SELECT (1', false],
    ['SELECT 1)', false],
    [')(', false],
    ['SELECT 1 /* ( */ ) AS x', false],
    ["SELECT '(' ) AS x", false],
    [
      "SELECT ')' AS a, $$)$$ AS b, $t$ ) $t$ AS c, E'\\')' AS d, \")\" AS e /* ) /* nested ) */ ) */ -- )\n, (1) AS n",
      true,
    ],
    ['SELECT count(*) FROM (SELECT 1) AS t WHERE (1 = 1)', true],
  ])('%j: %s', (sql, balanced) => {
    report.check({
      area: 'MCP (session 2): caps',
      input: `parentheses of ${JSON.stringify(sql).slice(0, 90)}`,
      cases: 1,
      expected: balanced ? 'balanced' : 'unbalanced',
      observed: balancedParentheses(sql, 'postgres') ? 'balanced' : 'unbalanced',
      serverSaw: '-',
    });
  });
});
