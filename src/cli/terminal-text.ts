/**
 * Text from a server or from stored data, made safe to print on a terminal. A server's error message
 * (or a project name, a queue error) may hold escape sequences that set the window title, clear the
 * screen or move the cursor, or bidi controls that make a line read as something else: all of them
 * go, so what the terminal shows is exactly the text the user can read. Newlines and tabs stay
 * (`oneLine` turns them into spaces, for table cells and one-line events).
 *
 * The CLI prints every server- or data-derived text through this one function; its own output (the
 * progress bars' cursor moves) does not pass through it.
 *
 * @example
 * ```ts
 * io.err.write(`seo-visibility: ${terminalText(error.message)}\n`);
 * ```
 * @internal
 */
export function terminalText(text: string, options: { oneLine?: boolean } = {}): string {
  return text
    .replace(ESCAPE_SEQUENCE, '')
    .replace(options.oneLine ? CONTROL_OR_BREAK : CONTROL, (c) => (c === '\n' || c === '\t' ? ' ' : ''));
}

/**
 * JSON for the terminal: the same data, with C1 controls and bidi controls written as `\uXXXX`
 * escapes (JSON.stringify already escapes C0), so `--json` stays lossless and still cannot drive
 * the terminal.
 *
 * @example
 * ```ts
 * io.out.write(`${terminalJson(status)}\n`);
 * ```
 * @internal
 */
export function terminalJson(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(
    UNPRINTABLE_IN_JSON,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

// ESC (or its 8-bit forms) with what follows it: CSI `ESC [ … final`, OSC / DCS / SOS / PM / APC
// strings up to BEL or ST (or the end of the text, when a server cut it), and two-byte ESC sequences.
// Removed whole, so no parameter ("0;title") is left behind as garbage.
const ESCAPE_SEQUENCE =
  /(?:\x1b\[|\x9b)[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]?|(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?|\x1b[\x20-\x2f]*[\x30-\x7e]?/g;
// C0 but newline and tab, DEL, C1, and the bidi controls (ALM, LRM, RLM, embeddings, overrides, isolates).
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const CONTROL_OR_BREAK = /[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const UNPRINTABLE_IN_JSON = /[\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/g;
