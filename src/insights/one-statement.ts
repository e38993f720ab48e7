import { InsightError } from './errors.js';

/**
 * Refuses SQL that holds more than one statement. SQLite would run only the first and drop the
 * rest unsaid, and PostgreSQL refuses them with a protocol message; either way the caller learns
 * nothing useful, so the `sql` tool says it plainly. Quotes, quoted identifiers and comments are
 * skipped, so a `;` inside them does not count; trailing semicolons are fine.
 * @internal
 */
export function assertOneStatement(sql: string): void {
  let i = 0;
  while (i < sql.length) {
    const ch = sql[i] as string;
    if (ch === "'" || ch === '"' || ch === '`') {
      const close = sql.indexOf(ch, i + 1);
      i = close === -1 ? sql.length : close + 1;
    } else if (sql.startsWith('--', i)) {
      const end = sql.indexOf('\n', i);
      i = end === -1 ? sql.length : end + 1;
    } else if (sql.startsWith('/*', i)) {
      const end = sql.indexOf('*/', i + 2);
      i = end === -1 ? sql.length : end + 2;
    } else if (ch === ';') {
      if (/\S/.test(stripComments(sql.slice(i + 1)).replaceAll(';', ''))) {
        throw new InsightError('usage', 'The sql tool runs one statement at a time: send each statement in its own call');
      }
      return;
    } else i++;
  }
}

/** `text` without `--` and block comments (only what follows the first `;` is checked with it). */
function stripComments(text: string): string {
  return text.replace(/--[^\n]*/g, '').replace(/\/\*[\s\S]*?(\*\/|$)/g, '');
}
