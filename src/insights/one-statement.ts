import type { DialectName } from './dialect.js';
import { InsightError } from './errors.js';

/**
 * The one statement `sql` holds, without the `;` that ends it and the comments or blanks after it;
 * more than one is refused. SQLite would run only the first and drop the rest unsaid, and
 * PostgreSQL refuses them with a protocol message; either way the caller learns nothing useful, so
 * the `sql` tool says it plainly. A `;` inside a string (`'…'`, PostgreSQL's `E'…'` with backslash
 * escapes and `$tag$…$tag$`), a quoted identifier or a comment (PostgreSQL's nest) does not count.
 * @example `oneStatement("SELECT ';' AS x; -- done", 'postgres')` is `"SELECT ';' AS x"`
 * @internal
 */
export function oneStatement(sql: string, dialect: DialectName): string {
  let end: number | undefined;
  scanCode(sql, dialect, (i) => {
    if (sql[i] !== ';') return false;
    end = i;
    return true;
  });
  if (end === undefined) return sql.trimEnd();
  if (/\S/.test(stripComments(sql.slice(end + 1), dialect).replaceAll(';', ''))) {
    throw new InsightError('usage', 'The sql tool runs one statement at a time: send each statement in its own call');
  }
  return sql.slice(0, end).trimEnd();
}

/**
 * Whether `sql` closes only parentheses it opened and leaves none open, outside strings, quoted
 * identifiers and comments. A statement placed inside a wrapper's `( … )` (the caps of the `sql`
 * tool) can then not close the wrapper's parenthesis and add a query of its own beside it; one
 * that could is no valid statement on its own either.
 * @example `balancedParentheses("SELECT 1) AS x UNION SELECT (2", 'postgres')` is `false`
 * @internal
 */
export function balancedParentheses(sql: string, dialect: DialectName): boolean {
  let depth = 0;
  scanCode(sql, dialect, (i) => {
    if (sql[i] === '(') depth++;
    else if (sql[i] === ')') depth--;
    return depth < 0;
  });
  return depth === 0;
}

/**
 * `sql` with its `?` placeholders numbered `$1`, `$2`, … as PostgreSQL takes them, in order; a `?`
 * inside a string, a quoted identifier, a dollar quote or a comment is text, and stays as written.
 * @example `numberedParameters("SELECT '?', ? WHERE x = ?")` is `"SELECT '?', $1 WHERE x = $2"`
 * @internal
 */
export function numberedParameters(sql: string): string {
  const at: number[] = [];
  scanCode(sql, 'postgres', (i) => {
    if (sql[i] === '?') at.push(i);
    return false;
  });
  let out = '';
  let from = 0;
  at.forEach((i, n) => {
    out += `${sql.slice(from, i)}$${n + 1}`;
    from = i + 1;
  });
  return out + sql.slice(from);
}

/**
 * Calls `visit` with the index of each character of `sql` outside strings (`'…'`, PostgreSQL's
 * `E'…'` and `$tag$…$tag$`), quoted identifiers and comments (PostgreSQL's nest), until it returns
 * true. One lexer for every check, so they agree with each other on what is code.
 */
function scanCode(sql: string, dialect: DialectName, visit: (i: number) => boolean): void {
  let i = 0;
  while (i < sql.length) {
    const ch = sql[i] as string;
    if ((ch === 'e' || ch === 'E') && sql[i + 1] === "'" && !/[\w$]/.test(sql[i - 1] ?? ''))
      i = endOfEscapeString(sql, i + 2);
    else if (ch === "'" || ch === '"' || ch === '`') i = endOfQuoted(sql, i + 1, ch);
    else if (ch === '[' && dialect === 'sqlite') i = endOf(sql, ']', i + 1);
    else if (ch === '$' && dialect === 'postgres' && dollarTag(sql, i)) {
      const tag = dollarTag(sql, i) as string;
      i = endOf(sql, tag, i + tag.length);
    } else if (sql.startsWith('--', i)) i = endOf(sql, '\n', i + 2);
    else if (sql.startsWith('/*', i)) i = endOfBlockComment(sql, i + 2, dialect === 'postgres');
    else if (visit(i)) return;
    else i++;
  }
}

/** Throws unless `sql` holds one statement (see {@link oneStatement}). @internal */
export function assertOneStatement(sql: string, dialect: DialectName = 'sqlite'): void {
  oneStatement(sql, dialect);
}

/** Where a quoted text that began before `from` ends: a doubled quote is a quote inside it. */
function endOfQuoted(sql: string, from: number, quote: string): number {
  let i = from;
  for (;;) {
    const close = sql.indexOf(quote, i);
    if (close === -1) return sql.length;
    if (sql[close + 1] !== quote) return close + 1;
    i = close + 2;
  }
}

/** The end of an `E'…'` string: a backslash escapes the next character, `''` is a quote. */
function endOfEscapeString(sql: string, from: number): number {
  let i = from;
  while (i < sql.length) {
    if (sql[i] === '\\') i += 2;
    else if (sql[i] === "'") {
      if (sql[i + 1] !== "'") return i + 1;
      i += 2;
    } else i++;
  }
  return sql.length;
}

/** `$tag$` or `$$` opening at `at` (not `$1`, a parameter), else undefined. */
function dollarTag(sql: string, at: number): string | undefined {
  if (/[\w$]/.test(sql[at - 1] ?? '')) return undefined;
  return /^\$(?:[A-Za-z_\u0080-\uffff][\w\u0080-\uffff]*)?\$/.exec(sql.slice(at, at + 64))?.[0];
}

function endOf(sql: string, closing: string, from: number): number {
  const close = sql.indexOf(closing, from);
  return close === -1 ? sql.length : close + closing.length;
}

/** The end of a block comment whose `/*` ends before `from`; PostgreSQL's nest, SQLite's do not. */
function endOfBlockComment(sql: string, from: number, nests: boolean): number {
  let depth = 1;
  let i = from;
  while (i < sql.length) {
    if (sql.startsWith('*/', i)) {
      depth--;
      i += 2;
      if (depth === 0 || !nests) return i;
    } else if (nests && sql.startsWith('/*', i)) {
      depth++;
      i += 2;
    } else i++;
  }
  return sql.length;
}

/** `text` without `--` and block comments (only what follows the first `;` is checked with it). */
function stripComments(text: string, dialect: DialectName): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    if (text.startsWith('--', i)) i = endOf(text, '\n', i + 2);
    else if (text.startsWith('/*', i)) i = endOfBlockComment(text, i + 2, dialect === 'postgres');
    else out += text[i++];
  }
  return out;
}
