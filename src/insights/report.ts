import { InsightError } from './errors.js';
import { type Alert, checkAlerts } from './report-alerts.js';
import { chartRenderer } from './report-charts.js';
import { gatherReport } from './report-data.js';
import { writeFileAtomically } from './report-file.js';
import { reportHtml } from './report-html.js';
import type { InsightSource } from './source.js';

/** What `seo-visibility report` does, apart from the command line. @internal */
export interface ReportOptions {
  out: string;
  project?: string | undefined;
  /** One account of a fleet warehouse (its account_id); every account, grouped by account, when absent. */
  account?: string | undefined;
  days: number;
  alerts: readonly Alert[];
  /** Movers and `visibility_drop` include changes of AI visibility that are not significant at 95%. */
  allChanges?: boolean | undefined;
  now?: Date | undefined;
}

/**
 * Writes the report (one self-contained HTML file; written beside under a new random name and
 * renamed into place, so a reader never sees half of it and no planted link is followed) and
 * returns the alerts whose thresholds were crossed, and the accounts the file covers (a fleet
 * warehouse's account ids, in the file's order; none in a store of one account).
 * @internal
 */
export async function writeReport(
  source: InsightSource,
  options: ReportOptions,
): Promise<{ projects: number; accounts: string[]; alerts: Awaited<ReturnType<typeof checkAlerts>> }> {
  const render = await chartRenderer();
  const scope = {
    project: options.project,
    account: options.account,
    days: options.days,
    allChanges: options.allChanges,
  };
  const projects = await gatherReport(source, scope);
  if (options.project && projects.length === 0)
    throw new InsightError('usage', `--project ${options.project}: the store holds no such project`);
  const html = reportHtml(projects, render, options.now ?? new Date());
  writeFileAtomically(options.out, html);
  // Whose account the file covers, for the line the command prints (none in a store of one account).
  const accounts = [...new Set(projects.flatMap((p) => (p.account === undefined ? [] : [p.account])))];
  return { projects: projects.length, accounts, alerts: await checkAlerts(source, options.alerts, scope) };
}
