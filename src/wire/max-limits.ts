/**
 * The largest `limit` each resource's lists take (the reference's "Limits"): what iteration without
 * a `limit` asks for, and what the sync's copy reads each page at. One place, read by both.
 *
 * @example
 * ```ts
 * client.rankings.list(projectId, { limit: MAX_LIMITS.rankings });
 * ```
 * @internal
 */
export const MAX_LIMITS = {
  projects: 500,
  rankings: 1000,
  prompts: 200,
  audits: 1000,
  backlinks: 1000,
  content: 1000,
} as const;
