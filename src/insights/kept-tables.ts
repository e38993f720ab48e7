import { aiVisibilityDaily } from './ai-visibility-daily.js';
import type { KeptTable } from './kept-table.js';
import { rankingsLatest } from './rankings-latest.js';

/**
 * The tables the database keeps beside the copy's, by their triggers (kept-table.ts): the daily
 * AI-visibility counts and each keyword's latest ranking check. The store makes them
 * (create-views.ts) and the `schema` tool describes them (schema-docs.ts).
 * @internal
 */
export const KEPT_TABLES: readonly KeptTable[] = [aiVisibilityDaily, rankingsLatest];
