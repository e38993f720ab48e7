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
const MEANINGS: ReadonlyArray<{ code: number; text: string | Record<Command, string>; only?: ReadonlyArray<Command | 'fleet work'> }> = [
  { code: EXIT.done, text: { plan: 'done: the plan is printed', sync: 'done: every dataset is up to date', report: 'done: the report is written', mcp: 'done: the client disconnected' } },
  { code: EXIT.alert, text: 'an --alert threshold was crossed: the report is written and the offending rows printed', only: ['report'] },
  { code: EXIT.stopped, text: 'stopped (budget spent, --max-requests reached, Ctrl-C); progress is saved, run the same command to resume', only: ['sync', 'fleet work'] },
  { code: EXIT.failed, text: 'failed (the error is printed), also when an optional package the command needs is not installed' },
  {
    code: EXIT.usage,
    text: {
      plan: 'bad usage (an unknown or empty option, a bad value, an unknown dataset, no API key)',
      sync: 'bad usage (an unknown or empty option, a bad value, an unknown dataset, no API key)',
      report: 'bad usage (an unknown or empty option, a bad value, a bad --alert, an unknown project, a missing --out folder)',
      mcp: 'bad usage (an unknown or empty option, a bad value; with --live, no API key)',
    },
  },
];

/** The environment variables each command reads (`only`: the commands that read it); the top-level help lists sync's. */
const ENVIRONMENT: ReadonlyArray<{ text: string; only?: ReadonlyArray<Command> }> = [
  { text: 'SEO_VISIBILITY_API_KEY    the API key (not needed with --simulator)', only: ['plan', 'sync'] },
  { text: 'SEO_VISIBILITY_API_KEY    the API key, with --live', only: ['mcp'] },
  { text: 'SEO_VISIBILITY_BASE_URL   the API\'s base URL, ending in /api/v1', only: ['plan', 'sync', 'mcp'] },
  { text: 'SEO_VISIBILITY_POSTGRES_URL  the PostgreSQL URL when no --db, --ndjson or --postgres is given', only: ['plan', 'sync'] },
  { text: 'SEO_VISIBILITY_POSTGRES_URL  the PostgreSQL URL when no --db or --postgres is given', only: ['report', 'mcp'] },
  { text: 'SEO_VISIBILITY_LOG        debug | info | warn | error: log each request to stderr', only: ['plan', 'sync', 'mcp'] },
  { text: 'HTTPS_PROXY, NO_PROXY     a proxy to the API (HTTP_PROXY for http://), and hosts reached without it', only: ['plan', 'sync', 'mcp'] },
];

/**
 * The "Exit codes" and "Environment" part of `--help`: for one command, or for every command
 * (the top-level help), where a code only one command returns is marked.
 * @example `exitHelp('plan')`
 * @internal
 */
export function exitHelp(command?: Command): string {
  const lines = MEANINGS.filter((m) => command === undefined || m.only === undefined || m.only.includes(command)).map((m) => {
    const text = typeof m.text === 'string' ? m.text : command ? m.text[command] : m.code === EXIT.usage ? m.text.sync : 'done';
    return `  ${String(m.code).padEnd(3)} ${command === undefined && m.only ? `${m.only.join(' and ')} only: ` : ''}${text}`;
  });
  // Only the variables the command reads: report takes no API key and calls no API.
  const environment = ENVIRONMENT.filter((e) => e.only === undefined || e.only.includes(command ?? 'sync')).map((e) => `  ${e.text}`);
  return `
Exit codes:
${lines.join('\n')}

Environment:
${environment.join('\n')}`;
}
