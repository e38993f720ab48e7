import { DatabaseSync } from 'node:sqlite';
import { type aiVisibility, viewRows } from '../../src/insights/queries.js';
import { SQLITE_COLUMNS, columnsOf } from '../../src/insights/schema-objects.js';
import type { InsightSource, ResultRow } from '../../src/insights/source.js';
import { TABLE_SCHEMAS } from '../../src/sync/index.js';

// A store of AI-model checks for the ai_visibility reads' tests (unit and reliability), and the
// answers the tool gave before its reads were bounded: the views over the whole history.

/** A check of prompts_history: [project, prompt, model, checked_at, visible, position, citations]. */
export type Check = [string, string, string, unknown, number, number | null, string];

export const SITES: Record<string, string> = { p1: 'https://www.acme.example/', p2: 'http://beta.example' };

/**
 * A store of these checks (the last of two with one key wins, as a sync's upsert), read in this
 * process; `tested` collects the citations text of every check whose citation test ran (SQLite's
 * LIKE, replaced on this connection by one that records what it tests).
 */
export function source(checks: Check[], sites: Record<string, string> = SITES): InsightSource & { tested: string[] } {
  const db = new DatabaseSync(':memory:');
  for (const t of Object.values(TABLE_SCHEMAS))
    db.exec(
      `CREATE TABLE "${t.table}" (${t.columns.map((c) => `"${c}"`).join(', ')}, PRIMARY KEY (${t.primaryKey.map((c) => `"${c}"`).join(', ')}))`,
    );
  for (const [id, url] of Object.entries(sites))
    db.prepare('INSERT INTO projects_list (id, name, "websiteUrl") VALUES (?, ?, ?)').run(id, id, url);
  const insert = db.prepare(
    'INSERT OR REPLACE INTO prompts_history (project_id, prompt_id, model, checked_at, prompt, is_visible, position, citations) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  );
  for (const [project, prompt, model, at, visible, position, cites] of checks)
    insert.run(project, prompt, model, at as string, `prompt ${prompt}`, visible, position, cites);
  const tested: string[] = [];
  db.function(
    'like',
    { deterministic: true, varargs: true },
    (pattern: unknown, text: unknown, escapeChar?: unknown) => {
      if (pattern === null || text === null) return null;
      tested.push(String(text));
      return likes(
        String(pattern),
        String(text),
        escapeChar === undefined || escapeChar === null ? undefined : String(escapeChar),
      )
        ? 1
        : 0;
    },
  );
  return {
    dialect: 'sqlite',
    location: ':memory:',
    columns: columnsOf(db.prepare(SQLITE_COLUMNS).all() as Array<Record<string, unknown>>),
    tested,
    query: async (sql, params = []) => ({
      rows: (db.prepare(sql).all(...(params as never[])) as ResultRow[]).map((r) => ({ ...r })),
      truncated: false,
    }),
    close: async () => db.close(),
  };
}

/** What the tool answered before: the views over the whole history, the daily rows cut from the earliest period start. */
export async function wholeHistory(s: InsightSource, filter: Parameters<typeof aiVisibility>[1]) {
  const models = await viewRows(
    s,
    'ai_visibility_models',
    { ...filter, limit: undefined },
    { orderBy: 'v.project_id, v.visibility_pct DESC, v.model' },
  );
  const from = models.map((m) => String(m['start_date'])).sort()[0];
  const daily = from
    ? await viewRows(s, 'ai_visibility', filter, {
        where: [['v.day >= ?', from]],
        orderBy: 'v.day DESC, v.model, v.prompt, v.account_id, v.project_id, v.prompt_id',
      })
    : [];
  return { models, daily };
}

/** SQLite's LIKE (ASCII case aside, `%`, `_`, an optional escape), for the ASCII texts of these tests. */
function likes(pattern: string, text: string, escapeChar: string | undefined): boolean {
  let source = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] as string;
    if (c === escapeChar) source += (pattern[++i] ?? '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    else if (c === '%') source += '[\\s\\S]*';
    else if (c === '_') source += '[\\s\\S]';
    else source += c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`, 'i').test(text);
}
