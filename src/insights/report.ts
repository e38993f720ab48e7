import { renameSync, writeFileSync } from 'node:fs';
import { InsightError } from './errors.js';
import { type Alert, checkAlerts } from './report-alerts.js';
import { chartRenderer } from './report-charts.js';
import { gatherReport } from './report-data.js';
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
  now?: Date | undefined;
}

/**
 * Writes the report (one self-contained HTML file; written beside and renamed into place, so a
 * reader never sees half of it) and returns the alerts whose thresholds were crossed.
 * @internal
 */
export async function writeReport(source: InsightSource, options: ReportOptions): Promise<{ projects: number; alerts: Awaited<ReturnType<typeof checkAlerts>> }> {
  const render = await chartRenderer();
  const projects = await gatherReport(source, { project: options.project, account: options.account, days: options.days });
  if (options.project && projects.length === 0) throw new InsightError('usage', `--project ${options.project}: the store holds no such project`);
  const html = reportHtml(projects, render, options.now ?? new Date());
  const partial = `${options.out}.${process.pid}.partial`;
  writeFileSync(partial, html);
  renameSync(partial, options.out);
  return { projects: projects.length, alerts: await checkAlerts(source, options.alerts, { project: options.project, days: options.days }) };
}
