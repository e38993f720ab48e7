import type { AuditState } from './data/audits.js';
import type { ContentState } from './data/content.js';
import type { KeywordTable } from './data/keywords.js';
import type { PromptState } from './data/prompts.js';
import { Rng } from './data/rng.js';
import type { BacklinkData, ContentPreferencesRecord, ProjectRecord, ReportRecord, WebhookRecord } from './records.js';

/** Everything the simulator keeps about one project. @internal */
export interface ProjectState {
  record: ProjectRecord;
  /** Position in creation order; keys the per-project hashes. */
  index: number;
  brand: string;
  domain: string;
  category: string;
  terms: readonly string[];
  keywords: KeywordTable;
  /** Time of the latest daily keyword scan (daily at 02:00 UTC). */
  lastScanAt: number;
  /** When the next weekly audit is queued; `null` for projects that do not audit. */
  nextAuditAt: number | null;
  /** When the next content item is added to the calendar; `null` to stop. */
  nextContentAt: number | null;
  preferences: ContentPreferencesRecord;
  backlinks: BacklinkData;
}

/** A report with its soft-delete marker. @internal */
export interface ReportState {
  record: ReportRecord;
  deletedAt: number | null;
}

/** Statuses the project list returns (reference: "only these are returned by the project list"). */
const LISTED = new Set(['trial', 'active', 'past_due']);

/**
 * The simulator's mutable in-memory state. Routes read and change it; `seedStore` fills it.
 *
 * @example
 * ```ts
 * const store = new Store(1, () => Date.now());
 * store.listedProjects(); // []
 * ```
 * @internal
 */
export class Store {
  readonly seed: number;
  /** Sequential generator for everything created after seeding (ids of new projects, audits…). */
  readonly rng: Rng;
  readonly now: () => number;
  readonly projects: ProjectState[] = [];
  /** Projects of another account: they exist, but every access is 403 FORBIDDEN. */
  readonly foreignProjectIds = new Set<string>();
  readonly prompts = new Map<string, PromptState[]>();
  readonly audits = new Map<string, AuditState[]>();
  readonly content = new Map<string, ContentState[]>();
  readonly reports = new Map<string, ReportState[]>();
  readonly webhooks: WebhookRecord[] = [];

  constructor(seed: number, now: () => number) {
    this.seed = seed;
    this.rng = new Rng(seed ^ 0x5eed);
    this.now = now;
  }

  /** A project by id, whatever its status. */
  project(id: string): ProjectState | undefined {
    const lower = id.toLowerCase();
    return this.projects.find((p) => p.record.id === lower);
  }

  /** Projects the list endpoint shows, in creation order. */
  listedProjects(): ProjectState[] {
    return this.projects.filter((p) => LISTED.has(p.record.status));
  }

  /** Whether a project is reachable through the API (cancelled projects are hidden everywhere). */
  isReachable(p: ProjectState): boolean {
    return LISTED.has(p.record.status);
  }

  /** Registers a project and its (possibly empty) collections. */
  addProject(p: ProjectState): void {
    this.projects.push(p);
    for (const map of [this.prompts, this.audits, this.content, this.reports] as Map<string, unknown[]>[]) {
      if (!map.has(p.record.id)) map.set(p.record.id, []);
    }
  }

  /** Reports of a project that are not soft-deleted. */
  liveReports(projectId: string): ReportRecord[] {
    return (this.reports.get(projectId) ?? []).filter((r) => r.deletedAt === null).map((r) => r.record);
  }
}
