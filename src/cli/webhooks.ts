import type { Server } from 'node:http';
import { type Command, InvalidArgumentError as CommanderArgumentError } from 'commander';
import { isInvalidArgumentError, KNOWN_EVENT_NAMES, type KnownWebhookEventName } from '../index.js';
import { createEventSync } from '../sync/index.js';
import {
  createWebhookReceiver,
  ensureWebhooks,
  generateWebhookSecret,
  memoryDedupeStore,
  postgresDedupeStore,
  type WebhookDedupeStore,
} from '../webhooks/index.js';
import { connect, UsageError } from './connect.js';
import { ensureFleetWebhooks } from './ensure-fleet.js';
import { listenFleet } from './listen-fleet.js';
import { closeServer, listenOn } from './listen-server.js';
import { withoutPassword } from './mask-password.js';
import { storeFactory } from './store-choice.js';
import { EXIT } from './exit-codes.js';
import { nonEmpty, wholeNumber } from './flags.js';
import type { CommandIO } from './store-options.js';
import { terminalJson, terminalText } from './terminal-text.js';
import { ENV } from '../internal/env-names.js';

function eventNames(value: string): KnownWebhookEventName[] {
  const names = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = names.find((n) => !(KNOWN_EVENT_NAMES as readonly string[]).includes(n));
  if (names.length === 0 || bad !== undefined)
    throw new CommanderArgumentError(
      `--events expects a comma-separated list of ${KNOWN_EVENT_NAMES.join(', ')}, got ${JSON.stringify(bad ?? value)}`,
    );
  return names as KnownWebhookEventName[];
}

const HELP = `
Exit codes:
  0   done: every project has one subscription to the receiver (with --dry-run: the steps are printed)
  1   failed (the error is printed)
  2   bad usage (no API key, no ${ENV.webhookSecret}, a bad --url or --events; with --accounts, a bad accounts
      file or an account's key variable unset)

Environment:
  ${ENV.apiKey}         a read+write API key
  ${ENV.baseUrl}        the API's base URL, ending in /api/v1
  ${ENV.webhookSecret}  the receiver's secret (seo-visibility webhooks secret makes one); to rotate it,
                                 set the new one here and give the receiver both until this has run`;

const LISTEN_HELP = `
Exit codes:
  0   stopped by SIGTERM or Ctrl-C after the acknowledged events were read (a fleet: queued)
  1   failed (the error is printed: a port in use, Postgres unreachable, a fleet worker that stopped)
  2   bad usage (no ${ENV.webhookSecret}, no store, --db or --reserve with --accounts, a bad accounts file;
      with --work, an account's key variable unset)

Fleet mode (--accounts): each account's URL is <path>/<account>/<its secret>, the secret derived from
${ENV.webhookSecret} (one account's URL tells nothing of another's); \`webhooks ensure --accounts\` subscribes
exactly these URLs. Killed with SIGKILL, the next start queues what was acknowledged and not queued.

Environment:
  ${ENV.webhookSecret}  the receiver's secret (the same as \`webhooks ensure\`)
  ${ENV.apiKey}         one account: its key (fleet mode: the accounts file names each key's variable)
  ${ENV.postgresUrl}    the Postgres URL when neither --db nor --postgres is given`;

/** `seo-visibility webhooks ensure|secret`: subscriptions kept pointed at the receiver. @internal */
export function registerWebhooks(program: Command, io: CommandIO): void {
  const webhooks = program
    .command('webhooks')
    .description('Keep one webhook subscription per project pointed at your receiver (seo-visibility/webhooks).');
  webhooks
    .command('ensure')
    .description(
      'Make sure every project has exactly one subscription to the receiver at --url, carrying the current secret: idempotent, no duplicates, a new secret rotates the URL in place.',
    )
    .requiredOption(
      '--url <base>',
      "the receiver's public base URL, without the secret (https://example.com/hooks/seo)",
      nonEmpty('--url'),
    )
    .option('--events <names>', `comma-separated events (default: all): ${KNOWN_EVENT_NAMES.join(', ')}`, eventNames)
    .option('--dry-run', 'print what would change, and change nothing')
    .option('--json', 'print the steps as JSON')
    .option(
      '--accounts <file>',
      "a fleet: every account of `fleet`'s accounts file, each on its own key, subscribed to <url>/<account>/<its secret> (what `listen --accounts` answers)",
    )
    .addHelpText(
      'after',
      `\nExamples:\n  $ seo-visibility webhooks ensure --url https://example.com/hooks/seo --dry-run\n  $ seo-visibility webhooks ensure --url https://example.com/hooks/seo --events keywords.updated,audit.completed\n  $ seo-visibility webhooks ensure --url https://example.com/hooks/seo --accounts accounts.json   # a fleet\n${HELP}`,
    )
    .action(async (opts: EnsureFlags) => io.setExit(await ensureCommand(opts, io)));
  program
    .command('listen')
    .description(
      "Run a webhook receiver (seo-visibility/webhooks) that reads each event's data into your copy (seo-visibility/sync), within the budget. SIGTERM stops it cleanly: what was acknowledged is read first.",
    )
    .requiredOption('--port <n>', 'the port to listen on', wholeNumber('--port', 0))
    .option(
      '--host <address>',
      'the address to listen on (put a proxy or tunnel in front)',
      nonEmpty('--host'),
      '127.0.0.1',
    )
    .option('--path <path>', 'the path the secret is appended to', nonEmpty('--path'), '/hooks/seo')
    .option('--db <file>', 'the SQLite file of your copy', nonEmpty('--db'))
    .option(
      '--postgres <url>',
      'the PostgreSQL database of your copy (also where repeated deliveries are remembered)',
      nonEmpty('--postgres'),
    )
    .option(
      '--reserve <n>',
      "requests of the day's budget the reads leave for the nightly sync (one account; a fleet's accounts file gives each its own)",
      wholeNumber('--reserve', 0),
      0,
    )
    .option(
      '--accounts <file>',
      "fleet mode (needs --postgres): the accounts file of `fleet`; each account gets its own URL, <path>/<account>/<its secret>, and its events become jobs for the fleet's workers",
    )
    .option('--schema <name>', 'fleet mode: the warehouse schema (as `fleet --schema`)', nonEmpty('--schema'))
    .option('--queue <name>', 'fleet mode: the pg-boss queue (as `fleet --queue`)', nonEmpty('--queue'))
    .option(
      '--work <n>',
      'fleet mode: also work the queue here, n accounts at once (0: leave it to `fleet work`; a receiver alone needs no API key)',
      wholeNumber('--work', 0),
      0,
    )
    .addHelpText(
      'after',
      `\nExamples:\n  $ seo-visibility listen --port 8787 --db seo.db --reserve 2000\n  $ seo-visibility listen --port 8787 --host 0.0.0.0 --postgres postgres://sync@db/warehouse\n  $ seo-visibility listen --port 8787 --postgres postgres://sync@db/warehouse --accounts accounts.json             # a fleet: jobs for \`fleet work\`\n  $ seo-visibility listen --port 8787 --postgres postgres://sync@db/warehouse --accounts accounts.json --work 2    # and work them here\n${LISTEN_HELP}`,
    )
    .action(async (opts: ListenFlags) => io.setExit(await listenCommand(opts, io)));
  webhooks
    .command('secret')
    .description(`Print a new random secret for ${ENV.webhookSecret} and the receiver.`)
    .action(() => {
      io.out.write(`${generateWebhookSecret()}\n`);
      io.setExit(EXIT.done);
    });
}

function usage(io: CommandIO, message: string): number {
  io.err.write(`seo-visibility: ${message}.\n`);
  return EXIT.usage;
}

/**
 * The receiver's secret from its variable, or undefined after saying how to set it (a usage error).
 * It never travels on the command line: argv is visible to every user of the machine.
 */
function receiverSecret(io: CommandIO): string | undefined {
  const secret = process.env[ENV.webhookSecret];
  if (!secret)
    io.err.write(
      `seo-visibility: set ${ENV.webhookSecret} to the receiver's secret (seo-visibility webhooks secret makes one).\n`,
    );
  return secret || undefined;
}

interface EnsureFlags {
  url: string;
  events?: KnownWebhookEventName[];
  dryRun?: boolean;
  json?: boolean;
  accounts?: string;
}

async function ensureCommand(opts: EnsureFlags, io: CommandIO): Promise<number> {
  const secret = receiverSecret(io);
  if (!secret) return EXIT.usage;
  let connection: Awaited<ReturnType<typeof connect>> | undefined;
  try {
    const steps = opts.accounts
      ? await ensureFleetWebhooks({ ...opts, accounts: opts.accounts }, secret)
      : await ensureWebhooks((connection = await connect({})).client, {
          url: opts.url,
          secret,
          ...(opts.events ? { events: opts.events } : {}),
          dryRun: opts.dryRun === true,
        });
    if (opts.json) {
      io.out.write(`${terminalJson(steps)}\n`);
      return EXIT.done;
    }
    for (const s of steps)
      io.out.write(
        `${s.action.padEnd(7)} ${'account' in s ? `${terminalText(String(s.account), { oneLine: true })}  ` : ''}${terminalText(s.projectId, { oneLine: true })}  ${terminalText(s.url, { oneLine: true })}  ${s.events.map((e) => terminalText(e, { oneLine: true })).join(',')}\n`,
      );
    const count = (action: string) => steps.filter((s) => s.action === action).length;
    const verb = opts.dryRun ? 'would be ' : '';
    io.out.write(
      `${count('create')} ${verb}created, ${count('update')} ${verb}updated, ${count('delete')} ${verb}deleted, ${count('keep')} kept${opts.dryRun ? ' (dry run: nothing changed)' : ''}\n`,
    );
    return EXIT.done;
  } catch (error) {
    const usage =
      error instanceof UsageError ||
      (isInvalidArgumentError(error) && ['base', 'secret', 'events'].includes(error.argument));
    // Messages name the argument and never the secret (ensureWebhooks and webhookUrl never echo it).
    io.err.write(`seo-visibility: ${terminalText(error instanceof Error ? error.message : String(error))}\n`);
    return usage ? EXIT.usage : EXIT.failed;
  } finally {
    await connection?.close();
  }
}

interface ListenFlags {
  port: number;
  host: string;
  path: string;
  db?: string;
  postgres?: string;
  reserve: number;
  accounts?: string;
  schema?: string;
  queue?: string;
  work: number;
}

async function listenCommand(opts: ListenFlags, io: CommandIO): Promise<number> {
  const secret = receiverSecret(io);
  if (!secret) return EXIT.usage;
  const fleetOnly =
    (['schema', 'queue'] as const).find((flag) => opts[flag] !== undefined) ?? (opts.work > 0 ? 'work' : undefined);
  if (opts.accounts === undefined && fleetOnly)
    return usage(io, `--${fleetOnly} is for fleet mode: give --accounts <file> too`);
  if (opts.accounts !== undefined) {
    const postgres = opts.postgres ?? process.env[ENV.postgresUrl];
    if (opts.db !== undefined)
      return usage(
        io,
        "--db and --accounts: a fleet's copy and queue are in Postgres; give --postgres <url> instead of --db",
      );
    if (!postgres)
      return usage(io, `No Postgres: fleet mode (--accounts) needs --postgres <url> or ${ENV.postgresUrl}`);
    if (opts.reserve !== 0)
      return usage(io, '--reserve and --accounts: each account\'s reserve is in the accounts file ("reserve")');
    return listenFleet(
      {
        port: opts.port,
        host: opts.host,
        path: opts.path,
        postgres,
        accounts: opts.accounts,
        schema: opts.schema,
        queue: opts.queue,
        work: opts.work,
      },
      secret,
      io,
    );
  }
  let connection: Awaited<ReturnType<typeof connect>> | undefined;
  // Opened below and closed in `finally`, whatever failed: a server left listening (or a pool left
  // open) kept the process alive after the error was printed.
  let server: Server | undefined;
  let dedupe: WebhookDedupeStore | undefined;
  const postgres = opts.postgres ?? (opts.db === undefined ? process.env[ENV.postgresUrl] : undefined);
  try {
    const store = storeFactory(opts, process.env, { required: true, allowNdjson: false })!();
    connection = await connect({});
    dedupe = postgres ? postgresDedupeStore(postgres) : memoryDedupeStore();
    const eventSync = createEventSync(connection.client, {
      store,
      windows: connection.windows,
      budget: { reserve: opts.reserve },
      onSync: (r) =>
        io.out.write(
          `${r.status.padEnd(15)} ${terminalText(r.projectId, { oneLine: true })}  ${r.datasets.join(',')}  ${r.events} event(s), ${r.requests} request(s)\n`,
        ),
    });
    const receiver = createWebhookReceiver({
      secret,
      path: opts.path,
      dedupe,
      onError: (error, event) =>
        io.err.write(
          `seo-visibility: the read for ${terminalText(event.event, { oneLine: true })} of project ${terminalText(event.project_id, { oneLine: true })} failed: ${terminalText(withoutPassword(error instanceof Error ? error.message : String(error), postgres), { oneLine: true })}\n`,
        ),
    });
    eventSync.attach(receiver);
    const listening = await listenOn(receiver.node, opts.port, opts.host);
    server = listening.server;
    // Events a killed process acknowledged but never read (a durable dedupe store only): read now.
    // Reads are idempotent, so none is left to a peer that may still be reading it.
    const recovered = await receiver.recover({ olderThanMs: 0 }).catch((error: unknown) => {
      throw new Error(
        `could not recover the acknowledged events kept in Postgres (--postgres): ${error instanceof Error ? error.message : String(error)}`,
      );
    });
    if (recovered > 0) io.out.write(`recovered ${recovered} acknowledged event(s) a stopped process had not read\n`);
    // The secret is the receiver's only credential: never printed.
    io.out.write(
      `listening on http://${opts.host}:${listening.port}${opts.path.replace(/\/+$/, '')}/<${ENV.webhookSecret}>\n`,
    );
    await new Promise<void>((resolve) => {
      if (io.signal.aborted) resolve();
      io.signal.addEventListener('abort', () => resolve(), { once: true });
    });
    // A clean stop: no new delivery, then what was acknowledged is read (or given up and printed).
    await closeServer(server);
    await receiver.idle();
    await eventSync.idle();
    io.out.write('stopped: every acknowledged event was handled\n');
    return EXIT.done;
  } catch (error) {
    const usage =
      error instanceof UsageError || (isInvalidArgumentError(error) && ['secret', 'path'].includes(error.argument));
    io.err.write(
      `seo-visibility: ${terminalText(withoutPassword(error instanceof Error ? error.message : String(error), postgres))}\n`,
    );
    return usage ? EXIT.usage : EXIT.failed;
  } finally {
    if (server?.listening) await closeServer(server);
    await dedupe?.close?.().catch(() => undefined);
    await connection?.close();
  }
}
