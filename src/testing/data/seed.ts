import type { AuditState } from './audits.js';
import { makeIssues } from './audits.js';
import { makeContent } from './content.js';
import { makeProject } from './project-factory.js';
import type { PromptState } from './prompts.js';
import { roundTime } from './prompts.js';
import { Store } from '../store.js';
import type { ProjectState } from '../store.js';
import type { EventName, ProjectRecord, SimAuditStatus, SimContentStatus, SimProductMode } from '../records.js';
import { DAY_MS, HOUR_MS, MINUTE_MS, dayOf, isoTime } from './time.js';
import { AI_MODELS, LOCATIONS, PROJECT_BLUEPRINTS, PROMPT_TEMPLATES } from './vocab.js';

/** Options that shape the seeded data. @internal */
export interface SeedOptions {
  seed: number;
  now: () => number;
  keywordsPerProject: number;
}

/**
 * The seeded account, slot by slot. Modes and statuses are fixed per slot so tests can rely on
 * them; names, domains and every number vary with the seed.
 * - slot 0: software, active, `keywordsPerProject` keywords, audits in crawling/failed/completed
 * - slot 1: managed, active, a pending audit
 * - slot 2: software, trial, only a processing audit (so `audits/latest` is 404)
 * - slot 3: managed, past_due
 * - slots 4, 5: cancelled (never listed, 404 on every read)
 */
const SLOTS: ReadonlyArray<{
  status: ProjectRecord['status'];
  mode: SimProductMode;
  ageDays: number;
  keywords: number;
  prompts: number;
  content: number;
  backlinks: number;
  audits: SimAuditStatus[];
}> = [
  {
    status: 'active',
    mode: 'software',
    ageDays: 420,
    keywords: Infinity,
    prompts: 24,
    content: 36,
    backlinks: 1,
    audits: ['completed', 'completed', 'completed', 'failed', 'completed', 'completed', 'crawling'],
  },
  {
    status: 'active',
    mode: 'managed',
    ageDays: 260,
    keywords: 320,
    prompts: 12,
    content: 20,
    backlinks: 0.6,
    audits: ['completed', 'completed', 'completed', 'pending'],
  },
  {
    status: 'trial',
    mode: 'software',
    ageDays: 6,
    keywords: 45,
    prompts: 5,
    content: 8,
    backlinks: 0.3,
    audits: ['processing'],
  },
  {
    status: 'past_due',
    mode: 'managed',
    ageDays: 700,
    keywords: 150,
    prompts: 8,
    content: 12,
    backlinks: 0.5,
    audits: ['completed', 'completed'],
  },
  {
    status: 'cancelled',
    mode: 'software',
    ageDays: 500,
    keywords: 30,
    prompts: 3,
    content: 4,
    backlinks: 0.2,
    audits: ['completed'],
  },
  {
    status: 'cancelled',
    mode: 'managed',
    ageDays: 900,
    keywords: 30,
    prompts: 3,
    content: 4,
    backlinks: 0.2,
    audits: ['completed'],
  },
];

/**
 * Builds the whole seeded account. Same seed and same start time ⇒ identical data.
 *
 * @example
 * ```ts
 * const store = seedStore({ seed: 1, now: () => Date.UTC(2025, 5, 1), keywordsPerProject: 2500 });
 * store.listedProjects().length; // 4
 * ```
 * @internal
 */
export function seedStore(options: SeedOptions): Store {
  const store = new Store(options.seed, options.now);
  const rng = store.rng;
  const start = options.now();
  const blueprints = rng.shuffle(PROJECT_BLUEPRINTS);
  let promptIndex = 0;
  SLOTS.forEach((slot, i) => {
    const bp = blueprints[i % blueprints.length] ?? PROJECT_BLUEPRINTS[0];
    const project = makeProject(store, {
      id: rng.uuid(),
      name: bp.brand,
      brand: bp.brand,
      domain: bp.domain,
      websiteUrl: `https://${bp.domain}`,
      category: bp.category,
      terms: bp.terms,
      status: slot.status,
      productMode: slot.mode,
      createdAt: start - slot.ageDays * DAY_MS - rng.int(1, 20) * HOUR_MS,
      keywordCount: Math.min(options.keywordsPerProject, slot.keywords),
      backlinkSize: slot.backlinks,
      recurring: slot.status !== 'cancelled',
    });
    store.prompts.set(
      project.record.id,
      seedPrompts(store, project, slot.prompts, start, () => promptIndex++, i === 0),
    );
    store.audits.set(project.record.id, seedAudits(store, project, slot.audits, start));
    const audits = store.audits.get(project.record.id) ?? [];
    if (slot.status !== 'cancelled') project.nextAuditAt = (audits[0]?.createdAt ?? start) + 7 * DAY_MS;
    seedContent(store, project, slot.content, start);
    seedReports(store, project, i === 0 ? 4 : 2, start);
  });
  seedWebhooks(store, start);
  store.foreignProjectIds.add(rng.uuid());
  return store;
}

function seedPrompts(
  store: Store,
  project: ProjectState,
  count: number,
  start: number,
  nextIndex: () => number,
  withUnchecked: boolean,
): PromptState[] {
  const rng = store.rng;
  const createdAt = Date.parse(project.record.createdAt);
  return Array.from({ length: count }, (_, i) => {
    const location = rng.pick(LOCATIONS);
    const prompt = rng.pick(PROMPT_TEMPLATES).replace('{c}', project.category).replace('{l}', location);
    const unchecked = withUnchecked && i === count - 1;
    const created = unchecked ? start - HOUR_MS : Math.min(start - DAY_MS, createdAt + rng.int(1, 30) * DAY_MS);
    const state: PromptState = {
      id: rng.uuid(),
      index: nextIndex(),
      projectId: project.record.id,
      prompt,
      target_location: location,
      brand_name: project.brand,
      brand_domain: project.domain,
      category: project.category,
      ai_search_volume: rng.int(1, 400) * 10,
      models: AI_MODELS,
      createdAt: created,
      // The unchecked prompt's first analysis is still ahead, so it reads `last_checked: null`.
      firstRoundAt: unchecked ? start + 30 * MINUTE_MS : created + rng.int(30, 240) * MINUTE_MS,
      rounds: 0,
      nextAt: 0,
      lastVolumeUpdate: start - rng.int(1, 20) * DAY_MS,
    };
    // Rounds completed so far: one per day since the first; the next one is due after `start`.
    state.rounds = state.firstRoundAt <= start ? Math.floor((start - state.firstRoundAt) / DAY_MS) + 1 : 0;
    state.nextAt = roundTime(state, state.rounds);
    return state;
  });
}

function seedAudits(
  store: Store,
  project: ProjectState,
  statuses: readonly SimAuditStatus[],
  start: number,
): AuditState[] {
  const rng = store.rng;
  // statuses run oldest → newest; the list is stored newest first.
  return statuses
    .map((status, i) => {
      const age = (statuses.length - 1 - i) * 7 * DAY_MS;
      const createdAt =
        status === 'pending'
          ? start - MINUTE_MS
          : status === 'crawling'
            ? start - 5 * MINUTE_MS
            : status === 'processing'
              ? start - 14 * MINUTE_MS
              : start - age - rng.int(2, 30) * HOUR_MS;
      const max = rng.pick([250, 500, 1000]);
      const crawlMs = rng.int(8, 15) * MINUTE_MS;
      const startedAt = status === 'pending' ? null : createdAt + MINUTE_MS;
      const pages = status === 'failed' ? rng.int(3, 40) : rng.int(Math.round(max * 0.6), max);
      const done = status === 'completed' || status === 'failed';
      const nextAt =
        status === 'pending'
          ? createdAt + 2 * MINUTE_MS
          : status === 'crawling'
            ? (startedAt ?? start) + crawlMs
            : status === 'processing'
              ? start + 5 * MINUTE_MS
              : null;
      const audit: AuditState = {
        id: rng.uuid(),
        projectId: project.record.id,
        target_url: project.record.websiteUrl,
        status,
        max_crawl_pages: max,
        pages_crawled: pages,
        createdAt,
        startedAt,
        completedAt: done ? (startedAt ?? createdAt) + crawlMs + 3 * MINUTE_MS : null,
        crawlMs,
        nextAt,
        willFail: false,
        issues: [],
      };
      if (status === 'completed') audit.issues = makeIssues(rng, pages, audit.completedAt ?? createdAt);
      return audit;
    })
    .reverse();
}

function seedContent(store: Store, project: ProjectState, count: number, start: number): void {
  const rng = store.rng;
  const today = dayOf(start) * DAY_MS;
  const items = Array.from({ length: count }, (_, i) => {
    const offsetDays = Math.round(-40 + (85 * i) / Math.max(1, count - 1));
    const scheduled = today + offsetDays * DAY_MS + rng.int(8, 17) * HOUR_MS;
    const status: SimContentStatus =
      scheduled < start ? 'Published' : rng.pick(['Approved', 'Approved', 'Needs Approval', 'Revising'] as const);
    const item = makeContent(
      rng,
      project.record.id,
      project.terms,
      scheduled,
      status,
      Math.min(start - HOUR_MS, scheduled - rng.int(10, 30) * DAY_MS),
    );
    // Workflow steps already overdue at seeding time happen soon after start, not all at once in the past.
    if (item.nextAt !== null && item.nextAt <= start) item.nextAt = start + rng.int(1, 48) * HOUR_MS;
    return item;
  });
  store.content.set(project.record.id, items);
}

function seedReports(store: Store, project: ProjectState, count: number, start: number): void {
  const rng = store.rng;
  const names = ['Q3 Visibility', 'Monthly Rankings', 'AI Visibility Snapshot', 'Backlink Review', 'Audit Summary'];
  const list = store.reports.get(project.record.id) ?? [];
  for (let i = 0; i < count; i++) {
    const name = names[i % names.length] ?? 'Report';
    const id = `${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${rng.hex(6)}`;
    const created = start - rng.int(2, 90) * DAY_MS;
    // The last seeded report of the first project is soft-deleted: it must 404 and stay unlisted.
    const deleted = project.index === 0 && i === count - 1;
    list.push({
      record: {
        id,
        project_id: project.record.id,
        name,
        report_type: 'visibility',
        url: `https://reports.example.com/r/${id}`,
        date_from: isoTime(created - 30 * DAY_MS).slice(0, 10),
        date_to: isoTime(created).slice(0, 10),
        created_at: isoTime(created),
      },
      deletedAt: deleted ? start - DAY_MS : null,
    });
  }
  store.reports.set(project.record.id, list);
}

function seedWebhooks(store: Store, start: number): void {
  const rng = store.rng;
  const [first, second] = store.listedProjects();
  const specs: Array<[ProjectState | undefined, EventName[]]> = [
    [first, ['audit.started', 'audit.completed']],
    [first, ['keywords.updated', 'prompts.updated', 'content.created', 'content.status_changed']],
    [second, ['audit.completed']],
  ];
  for (const [project, events] of specs) {
    if (!project) continue;
    const created = isoTime(start - rng.int(5, 60) * DAY_MS);
    // Seeded subscriptions are paused so a fresh simulator never sends traffic off the machine.
    store.webhooks.push({
      id: rng.uuid(),
      url: `https://hooks.example.com/seo/${rng.hex(8)}`,
      project_id: project.record.id,
      events,
      active: false,
      created_at: created,
      updated_at: created,
    });
  }
}
