// Each view lives in views/ with the helpers only it uses; this file lists them.
import { aiVisibility, aiVisibilityModels } from './views/ai-visibility.js';
import { auditChanges } from './views/audit-changes.js';
import { backlinkChanges, backlinkTrend } from './views/backlinks.js';
import { rankChanges } from './views/rank-changes.js';
import type { InsightView } from './views/view.js';

export { responses } from './views/ai-visibility.js';
export { rankingDays } from './views/rank-changes.js';
export { DEVICES, type InsightView, VIEW_PERIODS } from './views/view.js';

/**
 * Every insight view, in the order the schema lists them. The four the issue names, plus the
 * per-model summary of AI visibility and the referring-domain trend the report charts.
 * @internal
 */
export const INSIGHT_VIEWS: readonly InsightView[] = [
  rankChanges,
  aiVisibility,
  aiVisibilityModels,
  backlinkChanges,
  backlinkTrend,
  auditChanges,
];

/** The view named `name`, or undefined. @internal */
export function insightView(name: string): InsightView | undefined {
  return INSIGHT_VIEWS.find((v) => v.name === name);
}
