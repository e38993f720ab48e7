#!/usr/bin/env node
/**
 * The `seo-visibility` command: `plan` and `sync` (see `seo-visibility --help`).
 *
 * ```sh
 * npx seo-visibility sync --simulator --db demo.db
 * ```
 * @module
 */
import { CommanderError } from 'commander';
import { EXIT } from './exit-codes.js';
import { terminalText } from './terminal-text.js';
import { buildProgram } from './program.js';

/**
 * Node 22 flags `node:sqlite` as experimental and prints a warning on first use; the CLI's output
 * is for people, so that one warning (and only it) is dropped.
 */
function quietSqliteWarning(): void {
  const emit = process.emitWarning.bind(process);
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    const text = typeof warning === 'string' ? warning : warning.message;
    const type = typeof rest[0] === 'string' ? rest[0] : (rest[0] as { type?: string } | undefined)?.type;
    if ((type === 'ExperimentalWarning' || (warning as Error).name === 'ExperimentalWarning') && /sqlite/i.test(text))
      return;
    (emit as (...args: unknown[]) => void)(warning, ...rest);
  }) as typeof process.emitWarning;
}

/**
 * Runs the command line and resolves with the exit code. Ctrl-C (SIGINT) or SIGTERM stops a sync
 * cleanly, with progress saved; a second Ctrl-C exits at once.
 * @example `process.exitCode = await main(process.argv)`
 */
export async function main(argv: readonly string[]): Promise<number> {
  quietSqliteWarning();
  const controller = new AbortController();
  let interrupts = 0;
  const onSignal = () => {
    if (++interrupts > 1) process.exit(130);
    process.stderr.write(
      '\nStopping: finishing the requests in flight and saving progress (Ctrl-C again to quit at once)…\n',
    );
    controller.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  // A reader that has gone (`seo-visibility sync … | head -1`) is no error: stop as Ctrl-C does,
  // with progress saved, and say nothing (there is no one to say it to). Later writes to the closed
  // pipe fail the same way and are dropped. The listener stays: the last lines may fail after main().
  const onClosedOutput = (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE' && error.code !== 'ERR_STREAM_DESTROYED') throw error;
    controller.abort();
  };
  process.stdout.on('error', onClosedOutput);
  process.stderr.on('error', onClosedOutput); // `… 2>&1 | head -1`
  let code: number = EXIT.done;
  try {
    await buildProgram({
      out: process.stdout,
      err: process.stderr,
      signal: controller.signal,
      setExit: (c) => (code = c),
    }).parseAsync([...argv]);
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT.done : EXIT.usage;
    process.stderr.write(`seo-visibility: ${terminalText(error instanceof Error ? error.message : String(error))}\n`);
    return EXIT.failed;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  return code;
}

main(process.argv).then((code) => {
  process.exitCode = code;
});
