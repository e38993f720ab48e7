/** The fleet subcommands. @internal */
export type FleetCommand = 'enqueue' | 'work' | 'status' | 'plan';

const EXAMPLES: Record<FleetCommand, string[]> = {
  enqueue: [
    'seo-visibility fleet enqueue --postgres postgres://sync@db/warehouse --accounts accounts.json',
    'seo-visibility fleet enqueue --accounts accounts.json --account acme --account globex',
  ],
  work: [
    'seo-visibility fleet work --accounts accounts.json --concurrency 4            # on each machine',
    'seo-visibility fleet work --accounts accounts.json --exit-when-idle           # from cron',
    'seo-visibility fleet work --accounts accounts.json --simulator --exit-when-idle  # no keys: built-in simulator',
  ],
  status: [
    'seo-visibility fleet status --accounts accounts.json',
    'seo-visibility fleet status --accounts accounts.json --json   # every failure text whole',
  ],
  plan: [
    'seo-visibility fleet plan --accounts accounts.json',
    'seo-visibility fleet plan --accounts accounts.json --simulator --json',
  ],
};

const DONE: Record<FleetCommand, string> = {
  enqueue: 'done: the accounts are queued (or already were)',
  work: "done: no account of this fleet ended failed (those of another accounts file or schema don't count)",
  status: 'done: the status is printed (whatever the accounts’ states)',
  plan: 'done: every account is planned',
};

const FAILED: Record<FleetCommand, string> = {
  enqueue: 'failed: the error is printed (Postgres unreachable, say)',
  work: 'failed: an account of this fleet ended failed (retries spent or key refused), or an error is printed',
  status: 'failed: the error is printed',
  plan: 'failed: an account could not be planned (its row says why), or an error is printed',
};

/**
 * The "Examples" and "Exit codes" part of `fleet <command> --help`.
 * @example `fleetHelp('work')`
 * @internal
 */
export function fleetHelp(command: FleetCommand): string {
  const codes = [
    `  0   ${DONE[command]}`,
    `  1   ${FAILED[command]}`,
    `  2   bad usage: an unknown option, no Postgres, a bad accounts file${command === 'work' || command === 'plan' ? ', a key variable unset or malformed' : ''}`,
    ...(command === 'work'
      ? ['  75  stopped by Ctrl-C or SIGTERM: the runs in hand are queued again, progress saved']
      : []),
  ];
  return `
Examples:
${EXAMPLES[command].map((e) => `  $ ${e}`).join('\n')}

Exit codes:
${codes.join('\n')}`;
}
