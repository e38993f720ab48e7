import { ENV } from '../internal/env-names.js';

/**
 * Exit codes: 0 done; 1 failed (a missing optional package included: the command was right, the
 * install is not, in every command); 2 bad usage (unknown option, bad value, no API key); 3 an `--alert`
 * threshold of `report` was crossed (the report is written); 75 stopped before the end (budget
 * spent, `--max-requests` reached, Ctrl-C) with progress saved: run the same command again to
 * resume (75 is EX_TEMPFAIL: "try again later"). Only `sync` and `fleet work` can stop before the
 * end, so only they return 75; only `report` returns 3.
 * @internal
 */
export const EXIT = { done: 0, failed: 1, usage: 2, alert: 3, stopped: 75 } as const;

type Command = 'plan' | 'sync' | 'report' | 'mcp';

/** What each code means, per command where that differs; `only`: the commands that return it (`fleet` has its own help). */
const MEANINGS: ReadonlyArray<{
  code: number;
  text: string | Record<Command, string>;
  only?: ReadonlyArray<Command | 'fleet work'>;
}> = [
  {
    code: EXIT.done,
    text: {
      plan: 'done: the plan is printed',
      sync: 'done: every dataset is up to date',
      report: 'done: the report is written',
      mcp: 'done: the client disconnected',
    },
  },
  {
    code: EXIT.alert,
    text: 'an --alert threshold was crossed: the report is written and the offending rows printed',
    only: ['report'],
  },
  {
    code: EXIT.stopped,
    text: 'stopped (budget spent, --max-requests reached, Ctrl-C); progress is saved, run the same command to resume',
    only: ['sync', 'fleet work'],
  },
  {
    code: EXIT.failed,
    text: {
      plan: 'failed (the error is printed)',
      sync: 'failed (the error is printed; a missing optional package among them)',
      report: 'failed (the error is printed: the store cannot be read, a missing optional package…)',
      mcp: 'failed (the error is printed: the store cannot be read, a role that can do more than read, a missing optional package…)',
    },
  },
  {
    code: EXIT.usage,
    text: {
      plan: 'bad usage (an unknown or empty option, a bad value, an unknown dataset, no API key)',
      sync: 'bad usage (an unknown or empty option, a bad value, an unknown dataset, no API key)',
      report:
        'bad usage (an unknown or empty option, a bad value, not exactly one of --db and --postgres, a bad --alert, an unknown project, a missing --out folder)',
      mcp: 'bad usage (an unknown or empty option, a bad value, not exactly one of --db and --postgres, --allow-writes without --live)',
    },
  },
];

/** The environment each command reads (a command is only told of the variables it takes). */
const ENVIRONMENT: ReadonlyArray<{ name: string; text: string; for: ReadonlyArray<Command> }> = [
  { name: ENV.apiKey, text: 'the API key (not needed with --simulator)', for: ['plan', 'sync'] },
  { name: ENV.apiKey, text: 'the API key, for the api tool of --live only', for: ['mcp'] },
  { name: ENV.baseUrl, text: "the API's base URL, ending in /api/v1", for: ['plan', 'sync'] },
  { name: ENV.baseUrl, text: "the API's base URL, ending in /api/v1 (--live only)", for: ['mcp'] },
  {
    name: ENV.postgresUrl,
    text: 'the PostgreSQL URL when no --db, --ndjson or --postgres is given',
    for: ['plan', 'sync'],
  },
  {
    name: ENV.postgresUrl,
    text: 'the PostgreSQL URL when no --db or --postgres is given',
    for: ['report', 'mcp'],
  },
  {
    name: ENV.log,
    text: 'debug | info | warn | error: log each request to stderr',
    for: ['plan', 'sync'],
  },
  {
    name: ENV.log,
    text: 'debug | info | warn | error: log each request of the api tool to stderr',
    for: ['mcp'],
  },
  {
    name: 'HTTPS_PROXY, NO_PROXY',
    text: 'a proxy to the API (HTTP_PROXY for http://), and hosts reached without it',
    for: ['plan', 'sync', 'mcp'],
  },
];

/**
 * The "Exit codes" and "Environment" part of `--help`: for one command, or for every command
 * (the top-level help), where a code only one command returns is marked.
 * @example `exitHelp('plan')`
 * @internal
 */
export function exitHelp(command?: Command): string {
  const lines = MEANINGS.filter((m) => command === undefined || m.only === undefined || m.only.includes(command)).map(
    (m) => {
      const text =
        typeof m.text === 'string' ? m.text : command ? m.text[command] : m.code === EXIT.done ? 'done' : m.text.plan;
      return `  ${String(m.code).padEnd(3)} ${command === undefined && m.only ? `${m.only.join(' and ')} only: ` : ''}${text}`;
    },
  );
  const env = ENVIRONMENT.filter((e) => e.for.includes(command ?? 'sync')).map(
    (e) => `  ${e.name.padEnd(28)} ${e.text}`,
  );
  return `
Exit codes:
${lines.join('\n')}

Environment:
${env.join('\n')}`;
}
