import { type Command, InvalidArgumentError as CommanderArgumentError } from 'commander';
import { type Fleet, createFleet } from '../fleet/index.js';
import { UsageError } from './connect.js';
import { readAccountsFile, requireAccountKeys } from './fleet-accounts.js';
import { fleetHelp } from './fleet-help.js';
import { type SimulatedAccounts, simulatedAccounts } from './fleet-simulator.js';
import { statusTable, table } from './fleet-table.js';
import { EXIT } from './exit-codes.js';
import { withoutPassword } from './mask-password.js';
import { missedEventLines } from './missed-events.js';
import { shortDuration } from './progress.js';
import { terminalJson, terminalText } from './terminal-text.js';
import { ENV } from '../internal/env-names.js';

interface IO {
  out: NodeJS.WriteStream;
  err: NodeJS.WriteStream;
  setExit: (code: number) => void;
  signal: AbortSignal;
}

interface FleetFlags {
  postgres?: string;
  simulator?: boolean;
  json?: boolean;
  accounts: string;
  schema?: string;
  queue?: string;
}

const HELP = `
The accounts file names, for each account, the environment variable that holds its key:
  { "baseUrl": "https://…/api/v1",
    "accounts": { "acme":   { "keyEnv": "ACME_SEO_KEY" },
                  "globex": { "keyEnv": "GLOBEX_SEO_KEY", "datasets": ["rankings.list"], "reserve": 2000 } } }
  (per account also: projects, maxRequests, baseUrl, windows)

Examples:
  $ seo-visibility fleet enqueue --postgres postgres://sync@db/warehouse --accounts accounts.json
  $ seo-visibility fleet work --accounts accounts.json --concurrency 4            # on each machine
  $ seo-visibility fleet work --accounts accounts.json --exit-when-idle           # from cron
  $ seo-visibility fleet status --accounts accounts.json
  $ seo-visibility fleet plan --accounts accounts.json --json
  $ seo-visibility fleet work --accounts accounts.json --simulator --exit-when-idle   # try it: no keys

Exit codes: 0 done; 1 failed (an account ended failed, or an error is printed); 2 bad usage; 75 work
stopped by Ctrl-C or SIGTERM (runs in hand are queued again, progress saved).

Environment:
  ${ENV.postgresUrl}   the Postgres URL when --postgres is not given
  ${ENV.baseUrl}       the API's base URL when the accounts file gives none`;

const SIMULATOR_HELP =
  'serve every account of the file from the built-in simulator (no keys needed; rate windows 60× faster): try a fleet on a local Postgres';

/** Parses a whole number option, naming it. */
function whole(name: string, min: number) {
  return (value: string): number => {
    const n = Number(value);
    if (value.trim() === '' || !Number.isInteger(n) || n < min)
      throw new CommanderArgumentError(`${name} must be a whole number ≥ ${min}, got "${value}"`);
    return n;
  };
}

/**
 * Adds `seo-visibility fleet enqueue|work|status|plan`.
 * @internal
 */
export function registerFleet(program: Command, io: IO): void {
  const fleet = program
    .command('fleet')
    .description(
      'Sync many accounts, each on its own key, with workers on as many machines as you run (pg-boss on your Postgres).',
    )
    .addHelpText('after', HELP);
  const common = (command: Command) =>
    command
      .option('--postgres <url>', `the Postgres that holds the queue and the warehouse (or ${ENV.postgresUrl})`)
      .requiredOption(
        '--accounts <file>',
        'the accounts file (JSON): each account and the environment variable holding its key',
      )
      .option('--schema <name>', 'the warehouse schema (default seo_visibility_fleet)')
      .option(
        '--queue <name>',
        'the pg-boss queue (default seo-visibility-sync; each --schema gets its own: <name>/<schema>)',
      );

  common(fleet.command('enqueue'))
    .addHelpText('after', fleetHelp('enqueue'))
    .description(
      'Queue one sync per account (all, or those given with --account); an account already queued is left as it is.',
    )
    .option('--account <id...>', 'only these accounts (repeatable)')
    .action((flags: FleetFlags & { account?: string[] }) =>
      run(io, flags, false, async (f) => {
        const { queued, alreadyQueued } = await f.enqueue(flags.account ?? 'all');
        io.out.write(
          `Queued ${queued.length} account(s)${queued.length ? `: ${queued.join(', ')}` : ''}.${alreadyQueued.length ? ` Already queued: ${alreadyQueued.join(', ')}.` : ''}\n`,
        );
        return EXIT.done;
      }),
    );

  common(fleet.command('work'))
    .addHelpText('after', fleetHelp('work'))
    .description(
      'Work the queue in this process until Ctrl-C/SIGTERM (or, with --exit-when-idle, until nothing is left to do).',
    )
    .option('--simulator', SIMULATOR_HELP)
    .option('--concurrency <n>', 'accounts synced at once by this process', whole('--concurrency', 1), 4)
    .option('--exit-when-idle', 'exit once no account is queued, running or being retried anywhere in the fleet')
    .action((flags: FleetFlags & { concurrency: number; exitWhenIdle?: boolean }) =>
      run(io, flags, true, async (f) => {
        const say = (line: string) =>
          io.out.write(`[${new Date().toISOString().slice(11, 19)}] ${terminalText(line, { oneLine: true })}\n`);
        const result = await f.work({
          concurrency: flags.concurrency,
          exitWhenIdle: flags.exitWhenIdle ?? false,
          signal: io.signal,
          onEvent: (e) => {
            if (e.type === 'start') say(`${e.account}: started`);
            else if (e.type === 'error') say(`queue: ${e.message}`);
            else if (e.type === 'waiting') say(e.account ? `${e.account}: ${e.message}` : `${e.message}`);
            else if (e.run) {
              say(
                `${e.account}: ${e.run.status}${e.run.reason ? ` (${e.run.reason})` : ''}, ${e.run.requests} requests, ${e.run.rows} rows${e.run.resumesAt ? `; resumes at ${e.run.resumesAt}` : ''}${e.run.error ? `: ${e.run.error.message}` : ''}`,
              );
              for (const line of missedEventLines(e.run.missedEvents)) say(`${e.account}: ${line}`);
            }
          },
        });
        say(
          `${result.runs} run(s): ${result.completed} completed, ${result.stopped} stopped, ${result.failed} failed.`,
        );
        if (io.signal.aborted) return EXIT.stopped;
        // A failed run that pg-boss retried to success is not a failure: what counts is where each account ended.
        const failed = (await f.status()).filter((s) => s.state === 'failed');
        if (failed.length)
          say(
            `Failed: ${failed.map((s) => `${s.account} (${s.lastRun?.error?.message ?? 'see status'})`).join(', ')}.`,
          );
        return failed.length ? EXIT.failed : EXIT.done;
      }),
    );

  common(fleet.command('status'))
    .addHelpText('after', fleetHelp('status'))
    .description('Print every account: state, last run, requests, rows.')
    .option('--json', 'print the status as JSON')
    .action((flags: FleetFlags & { json?: boolean }) =>
      run(io, flags, false, async (f) => {
        const status = await f.status();
        io.out.write(flags.json ? `${terminalJson(status)}\n` : statusTable(status, terminalWidth(io.out)));
        return EXIT.done;
      }),
    );

  common(fleet.command('plan'))
    .addHelpText('after', fleetHelp('plan'))
    .description("Print each account's requests and least time under its own key's budget, and whether it fits today.")
    .option('--simulator', SIMULATOR_HELP)
    .option('--json', 'print the plan as JSON')
    .action((flags: FleetFlags & { json?: boolean }) =>
      run(io, flags, true, async (f) => {
        const plan = await f.plan();
        if (flags.json) io.out.write(`${terminalJson(plan)}\n`);
        else {
          const rows = plan.accounts.map((p) => [
            p.account,
            p.error ? `error: ${p.error}` : p.requests.toLocaleString('en-US'),
            p.error ? '' : shortDuration(p.leastTimeMs),
            p.error ? '' : p.fitsToday ? 'yes' : `no (${p.days} days)`,
          ]);
          io.out.write(table(['account', 'requests', 'least time', 'fits today'], rows));
          io.out.write(
            `${plan.requests.toLocaleString('en-US')} requests in all; ${plan.fitToday} of ${plan.accounts.length} account(s) fit today; with a worker free for each, the slowest takes ${shortDuration(plan.leastTimeMs)}.\n`,
          );
        }
        return plan.accounts.some((p) => p.error) ? EXIT.failed : EXIT.done;
      }),
    );
}

/**
 * Builds the fleet from the flags and runs `fn`, turning errors into a message and an exit code.
 * `needsKeys`: the command calls the API, so every account's key variable must be set.
 */
async function run(
  io: IO,
  flags: FleetFlags,
  needsKeys: boolean,
  fn: (fleet: Fleet) => Promise<number>,
): Promise<void> {
  const postgres = flags.postgres ?? process.env[ENV.postgresUrl];
  let fleet: Fleet | undefined;
  let simulated: SimulatedAccounts | undefined;
  try {
    if (!postgres) throw new UsageError(`No Postgres: pass --postgres <url> or set ${ENV.postgresUrl}.`);
    const file = readAccountsFile(flags.accounts);
    let { accounts } = file;
    if (flags.simulator) {
      // No key is read: each account is served by the built-in simulator, with its own key.
      simulated = await simulatedAccounts(accounts);
      accounts = simulated.accounts;
      (flags.json ? io.err : io.out).write(`Accounts served by ${simulated.source}.\n`);
    } else if (needsKeys) {
      requireAccountKeys(file, "Every worker needs every account's key (or try it with --simulator).");
    }
    fleet = createFleet({
      postgres,
      accounts,
      ...(flags.schema ? { schema: flags.schema } : {}),
      ...(flags.queue ? { queue: { name: flags.queue } } : {}),
    });
    io.setExit(await fn(fleet));
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    io.err.write(`seo-visibility: ${terminalText(withoutPassword(message, postgres))}\n`);
    io.setExit(
      error instanceof UsageError || (error as { name?: string })?.name === 'InvalidArgumentError'
        ? EXIT.usage
        : EXIT.failed,
    );
  } finally {
    await fleet?.close();
    await simulated?.close();
  }
}

/** The columns to fit: the terminal's, or COLUMNS when set; none on a pipe (nothing is cut there). */
function terminalWidth(out: NodeJS.WriteStream): number | undefined {
  if (out.isTTY && out.columns > 0) return out.columns;
  const columns = Number(process.env['COLUMNS']);
  return Number.isInteger(columns) && columns > 0 ? columns : undefined;
}
