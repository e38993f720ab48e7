/**
 * What a statement is, from its first word (after blanks, comments and opening parentheses):
 * `rows` for a query a wrapper can cap (SELECT, WITH, VALUES, TABLE), `describe` for SHOW and
 * EXPLAIN (small answers, run as written), `other` for anything else (never a read).
 * @example `statementKind('/* why *\/ (SELECT 1)')` is `'rows'`
 * @internal
 */
export function statementKind(sql: string): 'rows' | 'describe' | 'other' {
  let rest = sql;
  for (;;) {
    const before = rest;
    rest = rest.replace(/^[\s(]+/, '').replace(/^--[^\n]*(\n|$)/, '');
    if (rest.startsWith('/*')) rest = rest.slice(endOfComment(rest));
    if (rest === before) break;
  }
  const word = /^[A-Za-z]+/.exec(rest)?.[0]?.toLowerCase();
  if (word === 'select' || word === 'with' || word === 'values' || word === 'table') return 'rows';
  if (word === 'show' || word === 'explain') return 'describe';
  return 'other';
}

/** Where the (possibly nested, as in PostgreSQL) block comment at the start of `text` ends. */
function endOfComment(text: string): number {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    if (text.startsWith('/*', i)) {
      depth++;
      i++;
    } else if (text.startsWith('*/', i)) {
      depth--;
      i++;
      if (depth === 0) return i + 1;
    }
  }
  return text.length;
}
