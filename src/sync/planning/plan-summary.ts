import { durationWords, n } from '../scheduling/budget.js';
import { type DatasetName, datasetDef } from '../datasets/datasets.js';
import type { SyncPlan } from './plan-result.js';

/**
 * The plan in plain words: what it costs, which path the keyword history takes, how long it takes
 * under the windows, and whether it fits today.
 * @internal
 */
export function explainPlan(
  plan: SyncPlan,
  facts: { backfill: number; extend: number; datasets: DatasetName[]; implied: DatasetName[] },
): string {
  const lines: string[] = plan.blocked ? [`Blocked: ${plan.blocked}`] : [];
  lines.push(
    `${n(plan.requests)} requests for ${plan.projects} project${plan.projects === 1 ? '' : 's'} (${n(plan.planRequests)} more were spent reading list totals for this plan).`,
  );
  for (const [name, d] of Object.entries(plan.byDataset)) {
    if (!d) continue;
    const note = noteFor(name as DatasetName, d.requests, facts);
    d.note = note;
    lines.push(`  ${name.padEnd(18)} ${n(d.requests).padStart(8)}  ${note}`);
  }
  if (plan.historyPath !== 'none') {
    lines.push(
      plan.historyPath === 'extend'
        ? "rankings.history: back-filled already; extended from today's rankings.list snapshot (1,000 keywords per request, no extra request)."
        : plan.historyPath === 'backfill'
          ? `rankings.history: back-fill of ${n(facts.backfill)} keywords, one request each (once; later days extend it from rankings.list).`
          : `rankings.history: ${n(facts.backfill)} keywords to back-fill (one request each), ${n(facts.extend)} extended from today's rankings.list (no extra request).`,
    );
  }
  const windows = plan.windows.map((w) => `${n(w.limit)}/${per(w.intervalMs)}`).join(', ');
  lines.push(
    `Under ${windows}${plan.reported && plan.windows.some((w) => w.limit === plan.reported?.limit) ? ` (the server reports ${n(plan.reported.remaining)} of ${n(plan.reported.limit)} left)` : ''} it takes ${durationWords(plan.leastTimeMs)} at the least.`,
  );
  const reserve = plan.reserve ? ` with ${n(plan.reserve)} kept in reserve` : '';
  lines.push(
    plan.fitsToday
      ? `It fits in today's remaining budget: ${n(plan.remainingToday)} requests left${reserve}.`
      : `It does not fit in today's remaining budget (${n(plan.remainingToday)} left${reserve}): it spans ${plan.days} days; sync stops when today's budget is spent and the next run resumes.`,
  );
  return lines.join('\n');
}

function noteFor(
  name: DatasetName,
  requests: number,
  facts: { backfill: number; extend: number; implied: DatasetName[] },
): string {
  const implied = facts.implied.includes(name) ? ' (read for the datasets that depend on it, not stored)' : '';
  if (requests === 0) return `nothing to read: up to date${implied}`;
  if (name === 'rankings.history') return `back-fill ${n(facts.backfill)} keywords, one request each`;
  return `${datasetDef(name).note}${implied}`;
}

function per(ms: number): string {
  if (ms === 60_000) return 'minute';
  if (ms === 3_600_000) return 'hour';
  if (ms === 86_400_000) return 'day';
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000} h`;
  if (ms % 60_000 === 0) return `${ms / 60_000} min`;
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}
