import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readAccountsFile } from '../../src/cli/fleet-accounts.js';

const dir = mkdtempSync(join(tmpdir(), 'sv-accounts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
/** Writes `text` as an accounts file and returns its path. */
function file(text: string): string {
  const path = join(dir, `accounts-${++n}.json`);
  writeFileSync(path, text);
  return path;
}
/** What readAccountsFile throws (or undefined), as a message. */
function refusal(path: string, env: NodeJS.ProcessEnv = {}): string | undefined {
  try {
    readAccountsFile(path, env);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

const KEY = 'sv_live_0123456789abcdefABCDEF';

describe('readAccountsFile: a key written where its variable name belongs', () => {
  it('is refused, naming the account, and the value is never printed', () => {
    const path = file(JSON.stringify({ accounts: { oops: { keyEnv: KEY }, acme: { keyEnv: 'ACME_SEO_KEY' } } }));
    const message = refusal(path, { ACME_SEO_KEY: 'sv_live_acme' });
    expect(message).toContain('account "oops"');
    expect(message).toContain('not a valid variable name');
    expect(message).not.toContain(KEY);
    expect(message).not.toContain('sv_live');
  });

  it('variable names are upper case: a name in lower case is refused without being echoed', () => {
    const message = refusal(file(JSON.stringify({ accounts: { acme: { keyEnv: 'acme_key' } } })));
    expect(message).toMatch(/account "acme": "keyEnv" is not a valid variable name/);
    expect(message).not.toContain('acme_key');
  });

  it('an unset variable is still named, since only a valid name is ever printed', () => {
    const { missingKeys } = readAccountsFile(
      file(JSON.stringify({ accounts: { acme: { keyEnv: 'ACME_SEO_KEY' } } })),
      {},
    );
    expect(missingKeys).toEqual(['acme: ACME_SEO_KEY']);
  });
});

describe('readAccountsFile: a malformed key in its variable', () => {
  it('a trailing CR/LF (from a .env file) is reported per account and variable, never the key', () => {
    const { malformedKeys } = readAccountsFile(
      file(JSON.stringify({ accounts: { acme: { keyEnv: 'ACME_SEO_KEY' }, globex: { keyEnv: 'GLOBEX_SEO_KEY' } } })),
      {
        ACME_SEO_KEY: `${KEY}\r\n`,
        GLOBEX_SEO_KEY: KEY,
      },
    );
    expect(malformedKeys).toEqual([
      'acme: ACME_SEO_KEY holds whitespace, control or non-ASCII characters (a trailing newline or CR from a .env file?)',
    ]);
  });
});

describe('readAccountsFile: a duplicated account id', () => {
  it('is refused, naming the id and both places (JSON would keep the last one silently)', () => {
    const text = [
      '{',
      '  "accounts": {',
      '    "acme": { "keyEnv": "ACME_SEO_KEY" },',
      '    "globex": { "keyEnv": "GLOBEX_SEO_KEY" },',
      '    "acme": { "keyEnv": "OTHER_KEY" }',
      '  }',
      '}',
    ].join('\n');
    const message = refusal(file(text));
    expect(message).toMatch(/account "acme" is given twice: line 3, column 5 and line 5, column 5/);
  });

  it('a key repeated inside an account is refused too, naming where', () => {
    const message = refusal(file('{"accounts":{"acme":{"keyEnv":"A_KEY","keyEnv":"B_KEY"}}}'));
    expect(message).toMatch(/"keyEnv" of account "acme" is given twice: line 1, column 22 and line 1, column 39/);
  });

  it('the same id in two different objects is not a duplicate', () => {
    const path = file(
      JSON.stringify({
        accounts: {
          acme: { keyEnv: 'ACME_SEO_KEY', projects: ['acme'] },
          globex: { keyEnv: 'GLOBEX_SEO_KEY', projects: ['acme'] },
        },
      }),
    );
    expect(refusal(path)).toBeUndefined();
  });
});
