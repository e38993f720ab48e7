import { type Command, Option } from 'commander';
import { InsightError } from '../insights/errors.js';
import type { SourceOptions } from '../insights/open-source.js';
import type { InsightSource } from '../insights/source.js';
import { DEFAULT_PG_SCHEMA } from '../sync/stores/sql/postgres-store.js';
import { EXIT } from './exit-codes.js';
import { nonEmpty } from './flags.js';
import { terminalText } from './terminal-text.js';
import { ENV } from '../internal/env-names.js';

/** What a command writes to and how it ends. @internal */
export interface CommandIO {
  out: NodeJS.WriteStream;
  err: NodeJS.WriteStream;
  signal: AbortSignal;
  setExit: (code: number) => void;
  /**
   * Opens the store a reading command reads (`openSource` unless given): the unit tests hand the
   * command an in-process store here, where a module mock would leak between files that share a
   * worker's module cache.
   */
  openSource?: (options: SourceOptions) => Promise<InsightSource>;
}

/** `--db FILE` and `--postgres URL`: the store a reading command opens (exactly one). @internal */
export function storeOptions(command: Command): Command {
  return command
    .option('--db <file>', 'the SQLite store a sync wrote', nonEmpty('--db'))
    .addOption(
      new Option('--postgres <url>', 'the PostgreSQL store a sync wrote (a password in it is never printed)').env(
        ENV.postgresUrl,
      ),
    )
    .option('--schema <name>', "the Postgres store's schema", DEFAULT_PG_SCHEMA)
    .addOption(new Option('--simulator', 'with --live: call the built-in simulator instead of the API').hideHelp());
}

/**
 * Opens the store the options name, runs `fn` with it, closes it, and turns a failure into a
 * message on stderr and an exit code (2 for usage, 1 otherwise: a missing optional package is 1,
 * as in sync and fleet, since the command was right and the install is not).
 * @internal
 */
export async function withStoreErrors(
  io: CommandIO,
  fn: (source: InsightSource) => Promise<number>,
  opts?: SourceOptions,
  open?: (o: SourceOptions) => Promise<InsightSource>,
): Promise<number> {
  let source: InsightSource | undefined;
  try {
    if (opts && open) {
      if (!opts.db === !opts.postgres)
        throw new InsightError('usage', 'give exactly one of --db <file> or --postgres <url>');
      source = await open(opts);
    }
    return await fn(source as InsightSource);
  } catch (error) {
    io.err.write(`seo-visibility: ${terminalText(error instanceof Error ? error.message : String(error))}\n`);
    // A missing optional package is a failure (1), as in `sync`: one cause, one exit code.
    return error instanceof InsightError && error.code === 'usage' ? EXIT.usage : EXIT.failed;
  } finally {
    await source?.close();
  }
}
