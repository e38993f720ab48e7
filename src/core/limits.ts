/**
 * Maximum `limit` per request (api-reference "Limits" 3). An explicit `limit` above these fails
 * client-side (api-notes: the server's behaviour is not shown, so don't spend a request finding
 * out); iteration without a `limit` asks for exactly these.
 *
 * @internal
 */
export const MAX_LIMIT = {
  projects: 500,
  keywords: 1000,
  // Applied to prompt history too: it is a prompts resource, and the stricter reading is safe.
  prompts: 200,
  other: 1000,
} as const;
