import { buildProgram } from '../../src/cli/program.js';

/**
 * The whole `--help` of a command, as commander prints it (the text after the options too), in
 * process: no bundle, no child process.
 * @example `expect(helpOf('mcp')).toMatch(/--max-bytes/);`
 */
export function helpOf(name: string): string {
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
