import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/program.js';

// `report` and `mcp` both take --account (one account of a fleet warehouse), and say so in --help
// with an example over the fleet's schema.

/** The whole `--help` of a command, as commander prints it (the text after the options too). */
function helpOf(name: string): string {
  let text = '';
  const sink = { write: (chunk: string) => ((text += chunk), true) } as unknown as NodeJS.WriteStream;
  const program = buildProgram({ out: sink, err: sink, setExit: () => {}, signal: new AbortController().signal });
  program.exitOverride().configureOutput({ writeOut: (s) => void (text += s), writeErr: (s) => void (text += s) });
  try {
    program.parse(['node', 'seo-visibility', name, '--help']);
  } catch {
    // commander ends --help by throwing under exitOverride.
  }
  return text;
}

describe('--account in --help', () => {
  it.each(['report', 'mcp'])('%s: the option, and an example over the fleet schema', (name) => {
    const help = helpOf(name);
    expect(help).toMatch(/--account <id>\s+one account of a fleet warehouse \(its account_id\)/);
    expect(help).toMatch(
      new RegExp(`\\$ seo-visibility ${name} --postgres \\S+ --schema seo_visibility_fleet --account acme`),
    );
  });
});
