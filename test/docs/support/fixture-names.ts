/**
 * The names a JSDoc example may use without defining them, all in scope of every example (the
 * values come from fixtures.ts). Keep each one a thing a reader would have at hand: a client, an
 * id from an earlier call, a record from an earlier call, or a stand-in for the reader's own code
 * (`save`, `spinner`, `metrics`, …).
 */
export const FIXTURE_NAMES = [
  // The simulator and a client on it (read+write key).
  'sim',
  'client',
  'controller',
  'headers',
  'url',
  'clock',
  'userTypedKey',
  // Ids of records that exist in the simulator: a project with a completed audit, its first keyword, …
  'projectId',
  'keywordId',
  'promptId',
  'auditId',
  'contentId',
  'webhookId',
  'reportId',
  // Records, as the calls named in each comment return them.
  'project', // projects.list() item
  'projects', // projects.list() items
  'kw', // rankings.list() item
  'audit', // audits.list() item
  'issues', // audits.issues() items
  'items', // content.list() items
  'prompt', // prompts.list() item
  'response', // prompts.history() item
  'history', // rankings.history() result; in src/resources/backlinks*, backlinkHistory under this name
  'backlinkHistory', // backlinks.history() result
  'e', // a webhook event, parseWebhookEvent() of a delivery
  'rawBody', // the raw text of a webhook delivery's body
  'error', // what a failed call threw (a NotFoundError)
  // Stand-ins for the reader's own code.
  'save',
  'spinner',
  'metrics',
  'publish',
  'notifyBilling',
  'refreshAudit',
  'refreshRankings',
  'retry',
  'scheduleRetry', // takes a delay in ms
  'tracer', // an OpenTelemetry tracer (@opentelemetry/api)
  'provider', // the global OpenTelemetry tracer provider
  'gate', // a client's local throttle, as RateGateFactory.createGate receives it
  'job', // a sync job (seo-visibility/sync): one project's keyword list
  'store', // a sync store: SQLite in memory
] as const;

/** One of the names above. */
export type FixtureName = (typeof FIXTURE_NAMES)[number];
