import { describe, expect, test } from 'vitest';
import { terminalJson, terminalText } from '../../src/cli/terminal-text.js';

/** A 403 message as a hostile server wrote it: set-title, clear-screen, a right-to-left override. */
const HOSTILE = 'Forbidden\x1b]0;pwned\x07 key\x1b[2J\x1b[H\u202egnp.exe\u202c done\x9b31m\r\x00';

describe('terminalText', () => {
  test('removes escape sequences whole, C0/C1 controls and bidi controls; keeps the readable text', () => {
    expect(terminalText(HOSTILE)).toBe('Forbidden keygnp.exe done');
  });

  test('keeps newlines and tabs; oneLine turns them into spaces', () => {
    expect(terminalText('a\n\tb')).toBe('a\n\tb');
    expect(terminalText('a\nb\tc', { oneLine: true })).toBe('a b c');
  });

  test('an OSC cut at the end of the text, a lone ESC, DCS and 8-bit OSC are removed too', () => {
    expect(terminalText('ok\x1b]0;title never ended')).toBe('ok');
    expect(terminalText('a\x1bb\x1b')).toBe('a');
    expect(terminalText('x\x1bPq#0\x1b\\y')).toBe('xy');
    expect(terminalText('x\x9d0;t\x9cy')).toBe('xy');
  });

  test('text without controls is returned as it was, other scripts included', () => {
    const text = 'Café – 東京 – עברית, 50% ✓';
    expect(terminalText(text)).toBe(text);
  });
});

describe('terminalJson', () => {
  test('is lossless: the same data parses back, with no raw control or bidi character printed', () => {
    const value = { message: HOSTILE, name: 'x\u2066y' };
    const json = terminalJson(value);
    expect(JSON.parse(json)).toEqual(value);
    expect(json).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/);
  });
});
