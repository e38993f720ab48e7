import type { Command } from 'commander';
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { InsightError } from '../insights/errors.js';
import { type Alert, parseAlert } from '../insights/report-alerts.js';
import { writeReport } from '../insights/report.js';
import { openSource } from '../insights/open-source.js';
import { EXIT, exitHelp } from './exit-codes.js';
import { nonEmpty, wholeNumber } from './flags.js';
import { terminalText } from './terminal-text.js';
import { type CommandIO, storeOptions, withStoreErrors } from './store-options.js';

/**
 * The report's default time limit of one query: long, since a report of an agency's warehouse
 * reads much (the MCP server's 5 s is for an agent's one question), yet a bound: a frozen
 * PostgreSQL stops the report with a clear error instead of holding it (and its cron job) forever.
 */
const REPORT_TIMEOUT_MS = 300_000;

/** `seo-visibility report`: what changed, as one HTML file with charts; `--alert` for cron jobs. @internal */
export function registerReport(program: Command, io: CommandIO): void {
  storeOptions(program.command('report'))
    .description(
      'Write what changed (rank movers, top-10 entries and exits, AI visibility by model, referring domains, new audit issues) as one self-contained HTML file with charts.',
    )
    .requiredOption('--out <file>', 'the HTML file to write', nonEmpty('--out'))
    .option('-p, --project <id>', 'one project (all by default)', nonEmpty('--project'))
    .option(
      '--account <id>',
      'one account of a fleet warehouse (its account_id): its projects and alerts only; by default every account, a section per account, alert lines naming theirs',
      nonEmpty('--account'),
    )
    .option('--days <n>', 'period length in days, ending at the latest synced data', wholeNumber('--days', 1), 28)
    .option(
      '--alert <threshold...>',
      'exit 3 and print the rows when a threshold is crossed: rank_drop>=N, visibility_drop>=N, domains_lost>=N, new_critical>=N (repeatable)',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option(
      '--timeout <ms>',
      'time limit of one query in milliseconds, held in the store and on this side (a frozen PostgreSQL cannot hold the report)',
      wholeNumber('--timeout', 1),
      REPORT_TIMEOUT_MS,
    )
    .option(
      '--all-changes',
      'AI visibility is a sample: list every change among the movers and in visibility_drop, not only the significant ones (two-proportion z-test at 95%)',
    )
    .addHelpText(
      'after',
      `
Examples:
  $ seo-visibility report --db seo.db --out report.html
  $ seo-visibility report --postgres postgres://reader@db/seo --project 3f6c… --days 7 --out weekly.html
  $ seo-visibility report --db seo.db --out report.html --alert 'rank_drop>=5' --alert 'new_critical>=1'
  $ seo-visibility report --postgres postgres://reader@db/seo --schema seo_visibility_fleet --account acme --out acme.html

Every AI-visibility figure comes with its number of answers and a 95% Wilson interval; a change counts
as a mover (and for visibility_drop) when significant at 95%, unless --all-changes.
Charts need the optional package echarts (npm install echarts).
${exitHelp('report')}`,
    )
    .action(async (opts) => io.setExit(await reportCommand(opts, io)));
}

async function reportCommand(
  opts: {
    db?: string;
    postgres?: string;
    schema: string;
    out: string;
    project?: string;
    account?: string;
    days: number;
    alert?: string[];
    allChanges?: boolean;
    timeout: number;
  },
  io: CommandIO,
): Promise<number> {
  let alerts: Alert[] = [];
  // Checked before the store is opened: a bad threshold or folder is a usage error, nothing is read.
  const usage = await withStoreErrors(io, async () => {
    alerts = (opts.alert ?? []).map(parseAlert);
    const folder = dirname(resolve(opts.out));
    if (!existsSync(folder)) throw new InsightError('usage', `--out ${opts.out}: the folder ${folder} does not exist`);
    return EXIT.done;
  });
  if (usage !== 0) return usage;
  return withStoreErrors(
    io,
    async (source) => {
      const result = await writeReport(source, {
        out: opts.out,
        project: opts.project,
        account: opts.account,
        days: opts.days,
        alerts,
        allChanges: opts.allChanges,
      });
      io.out.write(
        `Report of ${result.projects} project(s) ${whose(result.accounts.length || !opts.account ? result.accounts : [opts.account], source.location)} over ${opts.days} days written to ${resolve(opts.out)}\n`,
      );
      // Keywords, domains and issue types are the server's text: no escape sequence or bidi control of theirs reaches the terminal.
      for (const { alert, lines } of result.alerts) {
        io.out.write(
          `ALERT ${alert.text}: ${lines.length} row(s)\n${lines.map((l) => `  ${terminalText(l, { oneLine: true })}\n`).join('')}`,
        );
      }
      return result.alerts.length ? EXIT.alert : EXIT.done;
    },
    { ...opts, timeoutMs: opts.timeout },
    io.openSource ?? openSource,
  );
}

/**
 * Whose account a report covers, as its stdout line says it (issue 23 §1): the account of a fleet
 * warehouse, the accounts of a report over several, or the store of one account (no id to name).
 * Account ids are the warehouse's text: printed with no control or bidi character.
 */
function whose(accounts: readonly string[], location: string): string {
  const shown = accounts.map((a) => terminalText(a, { oneLine: true }));
  if (shown.length === 0) return `of the account synced into ${terminalText(location, { oneLine: true })}`;
  if (shown.length === 1) return `of account ${shown[0]}`;
  return `of ${shown.length} accounts (${shown.join(', ')})`;
}
