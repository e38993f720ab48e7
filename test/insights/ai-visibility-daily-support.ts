/** The writes the ai_visibility_daily tests commit, the same for SQLite and PostgreSQL. */
import { TABLE_SCHEMAS, type Row } from '../../src/sync/index.js';

/** A commit's write of projects_list rows. */
export const projects = (rows: Row[]) => ({ table: TABLE_SCHEMAS['projects.list'], rows });

/** A commit's write of prompts_history rows. */
export const checks = (rows: Row[]) => ({ table: TABLE_SCHEMAS['prompts.history'], rows });

/** One check of project p1: its prompt, model, time, visibility and position, and the host it cites (none when empty). */
export const check = (prompt: string, model: string, at: string, visible: unknown, position: unknown, cites = '') => ({
  project_id: 'p1',
  prompt_id: prompt,
  model,
  checked_at: at,
  prompt: `prompt ${prompt}`,
  is_visible: visible,
  position,
  citations: cites ? [{ url: `https://${cites}/page` }] : [],
});

/** A project with a site, and two checks of it on two days, one visible and citing the site. */
export const siteAndTwoChecks = () => [
  projects([{ id: 'p1', name: 'Acme', websiteUrl: 'https://acme.example/' }]),
  checks([
    check('q1', 'openai/gpt-5', '2026-03-01T10:00:00Z', true, 1, 'acme.example'),
    check('q1', 'openai/gpt-5', '2026-03-02T10:00:00Z', false, 0),
  ]),
];
