import { makeProject } from '../data/project-factory.js';
import { hashUuid } from '../data/rng.js';
import type { ProjectState, Store } from '../store.js';
import type { Draw } from './draw.js';

/** One change chaos made to the simulator's truth (`sim.chaos.changes`). @example `{ list: 'content', op: 'delete', projectId: '1f…', key: '7c…' }` */
export interface DriftChange {
  /** The list that changed. */
  list: 'anchors' | 'content' | 'projects';
  /** What happened to it (`pad`: items added before the first run, see `listItems`). */
  op: 'delete' | 'insert' | 'reorder' | 'pad';
  /** The project whose list changed (the project itself for `projects`). */
  projectId: string;
  /** What changed: an anchor text, a content id, a project id, or a count. */
  key: string;
}

/** The lists chaos can change, by the path that reads them. */
const LISTS: ReadonlyArray<{ list: DriftChange['list']; path: RegExp }> = [
  { list: 'anchors', path: /^\/projects\/([^/]+)\/backlinks\/anchors$/ },
  { list: 'content', path: /^\/projects\/([^/]+)\/content$/ },
  { list: 'projects', path: /^\/projects$/ },
];

/**
 * Which drifting list a GET path reads, if any.
 * @example `listOf('/projects/1f…/content') // { list: 'content', projectId: '1f…' }`
 * @internal
 */
export function listOf(path: string): { list: DriftChange['list']; projectId: string } | undefined {
  for (const { list, path: re } of LISTS) {
    const m = re.exec(path);
    if (m) return { list, projectId: m[1] ? decodeURIComponent(m[1]).toLowerCase() : '' };
  }
  return undefined;
}

/**
 * Changes one list of the truth, as a real account changes while it is read: an item deleted, one
 * inserted at the head, or two swapped. `salt` names the moment (a page read, a run start), so the
 * same seed makes the same change.
 * @internal
 */
export function driftList(
  store: Store,
  draw: Draw,
  list: DriftChange['list'],
  projectId: string,
  salt: string,
): DriftChange | undefined {
  const op = draw.pick(['delete', 'insert', 'reorder'] as const, 'drift-op', list, projectId, salt);
  if (list === 'projects') return driftProjects(store, draw, op, salt);
  const project = store.project(projectId);
  if (!project || !store.isReachable(project)) return undefined;
  return list === 'anchors' ? driftAnchors(project, draw, op, salt) : driftContent(store, project, draw, op, salt);
}

function driftAnchors(
  project: ProjectState,
  draw: Draw,
  op: 'delete' | 'insert' | 'reorder',
  salt: string,
): DriftChange | undefined {
  const anchors = project.backlinks.anchors;
  const projectId = project.record.id;
  if (op === 'insert' || anchors.length < 2) {
    const text = `chaos anchor ${hashUuid(draw.int(0, 0x7fffffff, 'anchor', projectId, salt)).slice(0, 8)}`;
    if (anchors.some((a) => a.anchor_text === text)) return undefined;
    anchors.unshift({ anchor_text: text, count: 1, percentage: 0.1, is_dofollow: true });
    return { list: 'anchors', op: 'insert', projectId, key: text };
  }
  const i = draw.int(0, anchors.length - 1, 'anchor-at', projectId, salt);
  if (op === 'delete') {
    const [gone] = anchors.splice(i, 1);
    return { list: 'anchors', op: 'delete', projectId, key: gone?.anchor_text ?? '' };
  }
  const j = draw.int(0, anchors.length - 1, 'anchor-to', projectId, salt);
  const [a, b] = [anchors[i], anchors[j]];
  if (!a || !b || i === j) return undefined;
  anchors[i] = b;
  anchors[j] = a;
  return { list: 'anchors', op: 'reorder', projectId, key: `${a.anchor_text} ⇄ ${b.anchor_text}` };
}

function driftContent(
  store: Store,
  project: ProjectState,
  draw: Draw,
  op: 'delete' | 'insert' | 'reorder',
  salt: string,
): DriftChange | undefined {
  const items = store.content.get(project.record.id);
  const projectId = project.record.id;
  if (!items || items.length === 0) return undefined;
  // The content list is ordered by scheduled date: "reorder" moves one item to the head.
  const i = draw.int(0, items.length - 1, 'content-at', projectId, salt);
  const item = items[i];
  if (!item) return undefined;
  if (op === 'delete') {
    items.splice(i, 1);
    return { list: 'content', op: 'delete', projectId, key: item.detail.id };
  }
  const earliest = Math.min(...items.map((c) => Date.parse(c.detail.scheduled_date)));
  const head = new Date(earliest - 86_400_000).toISOString();
  if (op === 'reorder') {
    item.detail = { ...item.detail, scheduled_date: head };
    return { list: 'content', op: 'reorder', projectId, key: item.detail.id };
  }
  const id = hashUuid(draw.int(0, 0x7fffffff, 'content-id', projectId, salt), 'chaos-content');
  items.push({
    ...structuredClone(item),
    detail: { ...structuredClone(item.detail), id, scheduled_date: head, title: `Chaos ${id.slice(0, 8)}` },
  });
  return { list: 'content', op: 'insert', projectId, key: id };
}

/** Projects: one is cancelled (the list no longer shows it), or a cancelled one comes back. */
function driftProjects(
  store: Store,
  draw: Draw,
  op: 'delete' | 'insert' | 'reorder',
  salt: string,
): DriftChange | undefined {
  const listed = store.listedProjects();
  if (op !== 'insert' && listed.length > 1) {
    // The first project carries the padded lists: keep it, so every run has pages to drift on.
    const victim = draw.pick(listed.slice(1), 'project', salt);
    victim.record = { ...victim.record, status: 'cancelled' };
    return { list: 'projects', op: 'delete', projectId: victim.record.id, key: victim.record.id };
  }
  const back = store.projects.find((p) => !store.isReachable(p) && !store.foreignProjectIds.has(p.record.id));
  if (!back) return undefined;
  back.record = { ...back.record, status: 'active' };
  return { list: 'projects', op: 'insert', projectId: back.record.id, key: back.record.id };
}

/**
 * Grows the first listed project's anchors and content by `n` items each, so its lists take several
 * pages of the largest size and drift can happen between pages.
 * @internal
 */
export function padLists(store: Store, n: number): DriftChange[] {
  const project = store.listedProjects()[0];
  if (!project || n === 0) return [];
  const anchors = project.backlinks.anchors;
  for (let i = 0; i < n; i++)
    anchors.push({
      anchor_text: `padded anchor ${String(i).padStart(6, '0')}`,
      count: 1 + (i % 7),
      percentage: 0.01,
      is_dofollow: i % 3 !== 0,
    });
  const items = store.content.get(project.record.id) ?? [];
  const model = items[0];
  if (model) {
    const start = Date.parse(model.detail.scheduled_date);
    for (let i = 0; i < n; i++) {
      const id = hashUuid(store.seed, 'padded-content', i);
      items.push({
        ...structuredClone(model),
        detail: {
          ...structuredClone(model.detail),
          id,
          title: `Padded ${i}`,
          scheduled_date: new Date(start + (i + 1) * 3_600_000).toISOString(),
        },
      });
    }
  }
  return [
    { list: 'anchors', op: 'pad', projectId: project.record.id, key: String(n) },
    { list: 'content', op: 'pad', projectId: project.record.id, key: String(n) },
  ];
}

/**
 * Adds `n` active projects (no keywords, few backlinks) after the seeded ones, so the project list
 * takes several pages of the largest size and drift can happen between them.
 * @internal
 */
export function padProjects(store: Store, n: number): DriftChange[] {
  for (let i = 0; i < n; i++) {
    const domain = `padded-${i}.example`;
    makeProject(store, {
      id: hashUuid(store.seed, 'padded-project', i),
      name: `Padded ${i}`,
      brand: `Padded ${i}`,
      domain,
      websiteUrl: `https://${domain}`,
      category: 'business',
      terms: ['padded'],
      status: 'active',
      productMode: 'software',
      createdAt: store.now(),
      keywordCount: 0,
      backlinkSize: 0,
      recurring: false,
    });
  }
  return n === 0 ? [] : [{ list: 'projects', op: 'pad', projectId: '', key: String(n) }];
}
