import { type AccountStatus, statusRows } from '../fleet/index.js';
import { stateWords } from '../fleet/status.js';
import { terminalText } from './terminal-text.js';

/** The narrowest the state column is cut to: its words stay readable on a narrow terminal. */
const MIN_STATE_WIDTH = 24;

/**
 * `fleet status` as a table. A failure's text can be hundreds of characters (a gateway's page, a
 * server's message): with `width` (the terminal's columns), the state column is cut to fit, and a
 * note says where the whole text is. Without (a pipe), nothing is cut.
 * @example `io.out.write(statusTable(await fleet.status(), io.out.isTTY ? io.out.columns : undefined))`
 * @internal
 */
export function statusTable(status: readonly AccountStatus[], width: number | undefined): string {
  const flat = statusRows(status);
  const rows = status.map((s, i) => {
    const r = flat[i]!;
    const count = (n: number | '') => (n === '' ? '-' : n.toLocaleString('en-US'));
    // Cells quote the server (a failure's message): no escape sequence or bidi control reaches the terminal.
    return [s.account, stateWords(s), r.lastRunEnded || '-', count(r.requests), count(r.rows)].map((cell) =>
      terminalText(cell, { oneLine: true }),
    );
  });
  const head = ['account', 'state', 'last run (UTC)', 'requests', 'rows'];
  const STATE = 1;
  let cut = false;
  if (width !== undefined) {
    const others = head.reduce(
      (sum, h, i) => (i === STATE ? sum : sum + Math.max(h.length, ...rows.map((r) => r[i]!.length))),
      0,
    );
    const room = Math.max(MIN_STATE_WIDTH, width - others - 2 * (head.length - 1));
    for (const r of rows) {
      if (r[STATE]!.length > room) {
        r[STATE] = `${r[STATE]!.slice(0, room - 1)}…`;
        cut = true;
      }
    }
  }
  return table(head, rows) + (cut ? '(cut to fit the terminal: `fleet status --json` prints every text whole)\n' : '');
}

/**
 * Columns padded to their widest cell, under a rule.
 * @example `table(['account', 'requests'], [['acme', '1,154']])`
 * @internal
 */
export function table(head: string[], given: string[][]): string {
  const rows = given.map((r) => r.map((cell) => terminalText(cell, { oneLine: true }))); // cells may quote the server
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return `${[line(head), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n')}\n`;
}
