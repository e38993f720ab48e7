/**
 * `seo-visibility/insights`: the analytics views over a sync's store, as a store extension. The
 * views belong to insights, not to the sync: a `seo-visibility/sync` store makes tables only,
 * unless given this extension (the `seo-visibility` CLI and the fleet give it). Node only.
 *
 * @example
 * ```ts
 * import { SeoVisibilityClient } from 'seo-visibility';
 * import { runSync, sqliteStore } from 'seo-visibility/sync';
 * import { insightViews } from 'seo-visibility/insights';
 *
 * const sdk = new SeoVisibilityClient(); // SEO_VISIBILITY_API_KEY and SEO_VISIBILITY_BASE_URL
 * await runSync(sdk, { projects: 'all' }, { store: sqliteStore('seo.db', { extensions: [insightViews] }) });
 * // SELECT * FROM rank_changes WHERE period_days = 7
 * ```
 *
 * @packageDocumentation
 */
export { insightViews } from './create-views.js';
