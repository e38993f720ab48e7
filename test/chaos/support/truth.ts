/**
 * The simulator's truth for the current-state lists a copy keeps (projects, anchors, content), and
 * what a SQLite copy holds of them, so a model can compare the two after each run.
 */
import { DatabaseSync } from 'node:sqlite';
import { TABLE_SCHEMAS } from '../../../src/sync/index.js';
import type { Simulator } from '../../../src/testing/index.js';

/** Current-state tables compared with the truth, by dataset. */
export const CURRENT = ['projects.list', 'backlinks.anchors', 'content.list'] as const;
export type Current = (typeof CURRENT)[number];

/** Live keys per table: `projectId|key` (`id` alone for projects). */
export type Truth = Record<Current, Set<string>>;

/** What the simulator serves now. */
export function truthOf(sim: Simulator): Truth {
  const projects = sim.data.listedProjects.map((p) => p.id);
  return {
    'projects.list': new Set(projects),
    'backlinks.anchors': new Set(
      projects.flatMap((p) => sim.data.backlinks(p).anchors.map((a) => `${p}|${a.anchor_text}`)),
    ),
    'content.list': new Set(projects.flatMap((p) => sim.data.content(p).map((c) => `${p}|${c.id}`))),
  };
}

/** The key of a stored row, as in {@link Truth}. */
function keyOf(dataset: Current, row: Record<string, unknown>): string {
  if (dataset === 'projects.list') return String(row['id']);
  return `${String(row['project_id'])}|${String(dataset === 'backlinks.anchors' ? row['anchor_text'] : row['id'])}`;
}

/** Key → `_deleted_at` (null while served), per table, as the copy holds them. */
export function copyOf(path: string): Record<Current, Map<string, unknown>> {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    const read = (dataset: Current) => {
      const rows = db.prepare(`SELECT * FROM ${TABLE_SCHEMAS[dataset].table}`).all() as Array<Record<string, unknown>>;
      return new Map(rows.map((r) => [keyOf(dataset, r), r['_deleted_at'] ?? null]));
    };
    return {
      'projects.list': read('projects.list'),
      'backlinks.anchors': read('backlinks.anchors'),
      'content.list': read('content.list'),
    };
  } finally {
    db.close();
  }
}

/** Rows of `rankings_list` per project for one snapshot date. */
export function snapshotCounts(path: string, date: string): Map<string, number> {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    const rows = db
      .prepare(
        `SELECT project_id, count(*) AS n FROM ${TABLE_SCHEMAS['rankings.list'].table} WHERE snapshot_date = ? GROUP BY project_id`,
      )
      .all(date) as Array<{ project_id: string; n: number }>;
    return new Map(rows.map((r) => [r.project_id, Number(r.n)]));
  } finally {
    db.close();
  }
}

/** The project of a `projectId|key` (or a project id). */
export const projectOfKey = (key: string): string => key.split('|')[0] ?? '';

/** Keys a chaos change touched (`projectId|key`, or the project id), from `sim.chaos.changes` since `from`. */
export function touchedSince(sim: Simulator, from: number): Set<string> {
  const out = new Set<string>();
  for (const c of sim.chaos?.changes.slice(from) ?? []) {
    if (c.op === 'pad') continue;
    if (c.list === 'projects') out.add(c.projectId);
    else for (const k of c.key.split(' ⇄ ')) out.add(`${c.projectId}|${k}`);
  }
  return out;
}
