// `seo-visibility listen --accounts FILE --postgres URL`: one receiver process for every account of
// a fleet. Each account has its own URL (`{path}/{account}/{its secret}`); a delivery becomes a
// targeted pg-boss job (fleet.enqueueEvent: one per account, project and datasets at a time), read
// by the fleet's workers within the account's budget (`fleet work`, or this process with --work).
// The receiver holds no API key unless it also works the queue.
import type { Server } from 'node:http';
import { createFleet, type Fleet } from '../fleet/index.js';
import { postgresDedupeTable } from '../webhooks/postgres-dedupe-store.js';
import { checkSecrets } from '../webhooks/secret.js';
import { accountDedupe } from './account-dedupe.js';
import { accountHookPath } from './account-secrets.js';
import { UsageError } from './connect.js';
import { EXIT } from './exit-codes.js';
import { fleetReceivers } from './fleet-receivers.js';
import { closeServer, listenOn } from './listen-server.js';
import { readAccountsFile, requireAccountKeys } from './fleet-accounts.js';
import { withoutPassword } from './mask-password.js';
import type { CommandIO } from './store-options.js';
import { terminalText } from './terminal-text.js';

/** The flags of `listen` in fleet mode. @internal */
export interface FleetListenFlags {
  port: number;
  host: string;
  path: string;
  postgres: string;
  accounts: string;
  schema?: string | undefined;
  queue?: string | undefined;
  /** Accounts this process also syncs at once, as `fleet work --concurrency` (0: only receive). */
  work: number;
}

/**
 * Runs the fleet receiver until `io.signal` aborts, then stops cleanly: no new delivery is taken,
 * every acknowledged event is queued (or kept in the dedupe table for the next start), and the
 * worker, if any, hands its runs back to the queue. Resolves with the exit code.
 * @example `io.setExit(await listenFleet({ port: 8787, host: '127.0.0.1', path: '/hooks/seo', postgres, accounts: 'accounts.json', work: 0 }, secret, io))`
 * @internal
 */
export async function listenFleet(flags: FleetListenFlags, mainSecret: string, io: CommandIO): Promise<number> {
  let fleet: Fleet | undefined;
  let server: Server | undefined;
  const dedupeBase = postgresDedupeTable(flags.postgres, {
    schema: (flags.schema ?? 'seo_visibility_fleet').toLowerCase(),
    table: 'webhook_events',
  });
  const say = (line: string) => io.out.write(`${terminalText(line, { oneLine: true })}\n`);
  try {
    checkSecrets(mainSecret);
    const file = readAccountsFile(flags.accounts);
    const ids = Object.keys(file.accounts);
    if (flags.work > 0) {
      // Only a worker calls the API: a receiver alone needs no key at all.
      requireAccountKeys(
        file,
        "--work syncs every account, so it needs every account's key (or leave the work to `fleet work`).",
      );
    }
    fleet = createFleet({
      postgres: flags.postgres,
      accounts: file.accounts,
      ...(flags.schema ? { schema: flags.schema } : {}),
      ...(flags.queue ? { queue: { name: flags.queue } } : {}),
    });
    const dedupe = accountDedupe(dedupeBase, ids);
    let kept = 0;
    const onError = (id: string, error: unknown, event: { event: string; project_id: string }) => {
      kept++;
      io.err.write(
        `seo-visibility: ${terminalText(id, { oneLine: true })}: ${terminalText(event.event, { oneLine: true })} of project ${terminalText(event.project_id, { oneLine: true })} could not be queued (kept: the next start queues it): ${terminalText(error instanceof Error ? error.message : String(error), { oneLine: true })}\n`,
      );
    };
    const { receivers, node } = await fleetReceivers({
      queue: fleet,
      accountIds: ids,
      mainSecret,
      path: flags.path,
      dedupe,
      say,
      onError,
    });
    const listening = await listenOn(node, flags.port, flags.host);
    server = listening.server;
    const { port } = listening;

    // Events a killed process acknowledged but never queued: queued now (an enqueue is idempotent,
    // so none is left to a peer that may still be queueing it).
    const orphans = await dedupe.takeUnhandled(Date.now(), Date.now());
    let recovered = 0;
    for (const receiver of receivers.values()) recovered += await receiver.recover({ olderThanMs: 0 });
    if (recovered > 0) say(`recovered ${recovered} acknowledged event(s) a stopped process had not queued`);
    if (orphans > 0)
      say(`${orphans} acknowledged event(s) of accounts not in ${flags.accounts} are left for a start that has them`);
    // Never a secret: the main one nor an account's.
    say(
      `listening on http://${flags.host}:${port}${accountHookPath(flags.path, '<account>')}/<its secret> for ${ids.length} account(s): ${ids.join(', ')}`,
    );

    const stopping = new AbortController();
    const working =
      flags.work > 0
        ? fleet.work({
            concurrency: flags.work,
            signal: stopping.signal,
            onEvent: (e) => e.type === 'end' && e.run && say(workLine(e.account ?? '', e.run)),
          })
        : undefined;
    // A worker that fails (its Postgres gone) ends the process too, as a failure.
    const workFailed = working?.then(
      () => false,
      (error: unknown) => {
        io.err.write(
          `seo-visibility: the worker stopped: ${terminalText(error instanceof Error ? error.message : String(error), { oneLine: true })}\n`,
        );
        return true;
      },
    );
    const failed = await new Promise<boolean>((resolve) => {
      if (io.signal.aborted) resolve(false);
      io.signal.addEventListener('abort', () => resolve(false), { once: true });
      void workFailed?.then((f) => f && resolve(true));
    });
    // A clean stop: no new delivery; what was acknowledged is queued; the worker hands its runs back.
    await closeServer(server);
    for (const receiver of receivers.values()) await receiver.idle();
    stopping.abort();
    await workFailed;
    say(
      kept === 0
        ? 'stopped: every acknowledged event was queued'
        : `stopped: every acknowledged event was queued but ${kept}, kept for the next start`,
    );
    return failed ? EXIT.failed : EXIT.done;
  } catch (error) {
    const usage = error instanceof UsageError || (error as { name?: string })?.name === 'InvalidArgumentError';
    io.err.write(
      `seo-visibility: ${terminalText(withoutPassword(error instanceof Error ? error.message : String(error), flags.postgres))}\n`,
    );
    return usage ? EXIT.usage : EXIT.failed;
  } finally {
    if (server?.listening) await closeServer(server);
    await fleet?.close();
    await dedupeBase.close?.();
  }
}

function workLine(
  account: string,
  run: {
    status: string;
    reason?: string | undefined;
    requests: number;
    rows: number;
    error?: { message: string } | undefined;
  },
): string {
  return `${run.status.padEnd(14)} ${account}  ${run.requests} request(s), ${run.rows} row(s)${run.reason ? ` (${run.reason})` : ''}${run.error ? `: ${run.error.message}` : ''}`;
}
