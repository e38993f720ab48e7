import { Command, Option } from 'commander';
import { VERSION } from '../index.js';
import { DATASET_NAMES } from '../sync/index.js';
import { planCommand, syncCommand } from './commands.js';
import { useEnvProxy } from './env-proxy.js';
import { exitHelp } from './exit-codes.js';
import { registerFleet } from './fleet.js';
import { datasetNames, nonEmpty, projectIds, wholeNumber } from './flags.js';
import { registerMcp } from './mcp.js';
import { registerReport } from './report.js';
import type { CommandIO } from './store-options.js';
import { registerWebhooks } from './webhooks.js';

/** Options both commands take. */
function common(command: Command): Command {
  return command
    .option(
      '-p, --project <id...>',
      'project id(s) to copy (repeatable or comma-separated); all projects by default',
      projectIds,
    )
    .option(
      '-d, --datasets <names>',
      `comma-separated datasets (default: all): ${DATASET_NAMES.join(', ')}`,
      datasetNames,
    )
    .option(
      '--reserve <n>',
      "requests of the day's budget to leave free for interactive use (below the day's budget)",
      wholeNumber('--reserve', 0),
      0,
    )
    .option('--simulator', 'run against the built-in simulator (no API key needed; rate windows 60× faster)')
    .addOption(
      new Option('--simulator-keywords <n>', "keywords of the simulator's first project")
        .argParser(wholeNumber('--simulator-keywords', 0))
        .default(500)
        .hideHelp(),
    );
}

/**
 * The `seo-visibility` command line: `plan` and `sync`.
 * @example `await buildProgram(io).parseAsync(process.argv)`
 * @internal
 */
export function buildProgram(io: CommandIO): Command {
  const program = new Command('seo-visibility')
    .description(
      'Copy your SEO and AI Visibility data out: plan a sync against the rate budget, then run it into SQLite, resumably.',
    )
    .showHelpAfterError('(add --help for usage and examples)')
    .configureOutput({ writeOut: (s) => io.out.write(s), writeErr: (s) => io.err.write(s) })
    .exitOverride()
    // HTTP(S)_PROXY and NO_PROXY, for every command that calls out (the simulator is on loopback).
    .hook('preAction', async (_program, action) => {
      if (action.opts()['simulator']) return;
      try {
        await useEnvProxy(process.env);
      } catch (error) {
        action.error(`seo-visibility: ${(error as Error).message}`, { exitCode: 2, code: 'seo-visibility.proxy' });
      }
    })
    .version(VERSION, '-V, --version', 'print the version of seo-visibility')
    .addHelpText(
      'after',
      `
Examples:
  $ npx seo-visibility sync --simulator --db demo.db     try it with no key, on the built-in simulator
  $ seo-visibility plan                                   what a full sync costs and how long it takes
  $ seo-visibility sync --db seo.db --reserve 2000        copy everything, leaving 2,000 requests for others
${exitHelp()}`,
    );

  common(program.command('plan'))
    .description(
      "Print what a sync would cost: requests per dataset, the time under the rate windows, and whether it fits in today's budget.",
    )
    .option(
      '--db <file>',
      'the SQLite file a later sync writes to (what it holds is not counted again)',
      nonEmpty('--db'),
    )
    .option(
      '--postgres <url>',
      'the PostgreSQL database a later sync writes to (schema seo_visibility)',
      nonEmpty('--postgres'),
    )
    .option('--json', 'print the plan as JSON')
    .addHelpText(
      'after',
      `
Examples:
  $ seo-visibility plan
  $ seo-visibility plan --db seo.db --datasets rankings.list,rankings.history
  $ seo-visibility plan --project 3f6c…-… --project 8a1d…-… --reserve 5000
  $ seo-visibility plan --simulator --json
${exitHelp('plan')}`,
    )
    .action(async (opts) => io.setExit(await planCommand(opts, io)));

  common(program.command('sync'))
    .description(
      'Copy the data into a SQLite file (or NDJSON files), resumably: Ctrl-C or a spent budget stops it with progress saved; the same command resumes.',
    )
    .option('--db <file>', 'the SQLite file to write (created if missing)', nonEmpty('--db'))
    .option(
      '--ndjson <dir>',
      'write newline-delimited JSON files into this folder instead of SQLite',
      nonEmpty('--ndjson'),
    )
    .option(
      '--postgres <url>',
      'write into PostgreSQL (schema seo_visibility) instead of SQLite; the password is never printed',
      nonEmpty('--postgres'),
    )
    .option('--max-requests <n>', 'stop (resumably) after this many requests', wholeNumber('--max-requests', 1))
    .option(
      '--concurrency <n>',
      'requests in flight at once (at most one per dataset and project)',
      wholeNumber('--concurrency', 1),
      4,
    )
    .option('--fresh', 'drop the progress of a stopped run of another job instead of failing')
    .addOption(
      new Option('--progress <mode>', 'bars, lines or none (default: bars on a terminal, lines otherwise)').choices([
        'bars',
        'lines',
        'none',
      ]),
    )
    .addHelpText(
      'after',
      `
Examples:
  $ npx seo-visibility sync --simulator --db demo.db
  $ seo-visibility sync --db seo.db
  $ seo-visibility sync --db seo.db --datasets rankings.list,rankings.history --max-requests 10000
  $ seo-visibility sync --ndjson ./export --reserve 2000 --progress lines
  $ seo-visibility sync --postgres postgres://sync@db.internal:5432/warehouse
${exitHelp('sync')}`,
    )
    .action(async (opts) => io.setExit(await syncCommand(opts, io)));

  registerReport(program, io);
  registerMcp(program, io);
  registerFleet(program, io);
  registerWebhooks(program, io);
  return program;
}
