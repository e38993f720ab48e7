import { Command, InvalidArgumentError as CommanderArgumentError, Option } from 'commander';
import { DATASET_NAMES } from '../sync/index.js';
import { planCommand, syncCommand } from './commands.js';
import { registerMcp } from './mcp.js';
import { integer } from './option-parsers.js';
import { registerReport } from './report.js';

export { EXIT } from './exit-codes.js';

const EXIT_HELP = `
Exit codes:
  0   done: every dataset is up to date
  75  stopped (budget spent, --max-requests reached, Ctrl-C); progress is saved, run the same command to resume
  1   failed (the error is printed)
  2   bad usage (unknown option or dataset, no API key)

Environment:
  SEO_VISIBILITY_API_KEY    the API key (not needed with --simulator)
  SEO_VISIBILITY_BASE_URL   the API's base URL, ending in /api/v1
  SEO_VISIBILITY_POSTGRES_URL  the PostgreSQL URL when no --db, --ndjson or --postgres is given`;

function datasets(value: string): string[] {
  const names = value.split(',').map((s) => s.trim()).filter(Boolean);
  const unknown = names.filter((n) => !(DATASET_NAMES as readonly string[]).includes(n));
  if (unknown.length) throw new CommanderArgumentError(`unknown dataset ${unknown.join(', ')}; known datasets: ${DATASET_NAMES.join(', ')}`);
  return names;
}

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, ...value.split(',').map((s) => s.trim()).filter(Boolean)];
}

/** Options both commands take. */
function common(command: Command): Command {
  return command
    .option('-p, --project <id...>', 'project id(s) to copy (repeatable or comma-separated); all projects by default', collect)
    .option('-d, --datasets <names>', `comma-separated datasets (default: all): ${DATASET_NAMES.join(', ')}`, datasets)
    .option('--reserve <n>', "requests of the day's budget to leave free for interactive use", integer('--reserve'), 0)
    .option('--simulator', 'run against the built-in simulator (no API key needed; rate windows 60× faster)')
    .addOption(new Option('--simulator-keywords <n>', 'keywords of the simulator\'s first project').argParser(integer('--simulator-keywords')).default(500).hideHelp());
}

/**
 * The `seo-visibility` command line: `plan` and `sync`.
 * @example `await buildProgram(io).parseAsync(process.argv)`
 * @internal
 */
export function buildProgram(io: { out: NodeJS.WriteStream; err: NodeJS.WriteStream; setExit: (code: number) => void; signal: AbortSignal }): Command {
  const program = new Command('seo-visibility')
    .description('Copy your SEO and AI Visibility data out: plan a sync against the rate budget, then run it into SQLite, resumably.')
    .showHelpAfterError('(add --help for usage and examples)')
    .configureOutput({ writeOut: (s) => io.out.write(s), writeErr: (s) => io.err.write(s) })
    .exitOverride()
    .addHelpText(
      'after',
      `
Examples:
  $ npx seo-visibility sync --simulator --db demo.db     try it with no key, on the built-in simulator
  $ seo-visibility plan                                   what a full sync costs and how long it takes
  $ seo-visibility sync --db seo.db --reserve 2000        copy everything, leaving 2,000 requests for others
${EXIT_HELP}`,
    );

  common(program.command('plan'))
    .description('Print what a sync would cost: requests per dataset, the time under the rate windows, and whether it fits in today\'s budget.')
    .option('--db <file>', 'the SQLite file a later sync writes to (what it holds is not counted again)')
    .option('--postgres <url>', 'the PostgreSQL database a later sync writes to (schema seo_visibility)')
    .option('--json', 'print the plan as JSON')
    .addHelpText(
      'after',
      `
Examples:
  $ seo-visibility plan
  $ seo-visibility plan --db seo.db --datasets rankings.list,rankings.history
  $ seo-visibility plan --project 3f6c…-… --project 8a1d…-… --reserve 5000
  $ seo-visibility plan --simulator --json
${EXIT_HELP}`,
    )
    .action(async (opts) => io.setExit(await planCommand(opts, io)));

  common(program.command('sync'))
    .description('Copy the data into a SQLite file (or NDJSON files), resumably: Ctrl-C or a spent budget stops it with progress saved; the same command resumes.')
    .option('--db <file>', 'the SQLite file to write (created if missing)')
    .option('--ndjson <dir>', 'write newline-delimited JSON files into this folder instead of SQLite')
    .option('--postgres <url>', 'write into PostgreSQL (schema seo_visibility) instead of SQLite; the password is never printed')
    .option('--max-requests <n>', 'stop (resumably) after this many requests', integer('--max-requests'))
    .option('--concurrency <n>', 'requests in flight at once (at most one per dataset and project)', integer('--concurrency'), 4)
    .option('--fresh', 'drop the progress of a stopped run of another job instead of failing')
    .option('--progress <mode>', 'bars | lines | none (default: bars on a terminal, lines otherwise)')
    .addHelpText(
      'after',
      `
Examples:
  $ npx seo-visibility sync --simulator --db demo.db
  $ seo-visibility sync --db seo.db
  $ seo-visibility sync --db seo.db --datasets rankings.list,rankings.history --max-requests 10000
  $ seo-visibility sync --ndjson ./export --reserve 2000 --progress lines
  $ seo-visibility sync --postgres postgres://sync@db.internal:5432/warehouse
${EXIT_HELP}`,
    )
    .action(async (opts) => io.setExit(await syncCommand(opts, io)));

  registerReport(program, io);
  registerMcp(program, io);
  return program;
}
