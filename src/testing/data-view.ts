import { auditRecord, issueRecords, latestAuditRecord } from './data/audits.js';
import type { KeywordTable } from './data/keywords.js';
import { promptDetail } from './data/prompts.js';
import type { ProjectState, Store } from './store.js';
import type {
  AuditIssueRecord,
  AuditRecord,
  BacklinkData,
  ContentDetailRecord,
  ContentPreferencesRecord,
  LatestAuditRecord,
  ProjectRecord,
  PromptDetailRecord,
  ReportRecord,
  WebhookRecord,
} from './records.js';

/**
 * Read access to the simulator's current state, in the wire shapes the API serves, so tests can
 * assert responses against it. Reads are live (they reflect `advance` and writes) and return
 * copies or computed records: changing them does not change the simulator.
 *
 * @example
 * ```ts
 * const [project] = sim.data.listedProjects;
 * const keywords = sim.data.keywords(project!.id);
 * const firstPage = await client.rankings.list(project!.id);
 * console.assert(firstPage.pagination?.total === keywords.count); // in a test: expect(…).toBe(…)
 * ```
 */
export class SimulatorData {
  readonly #store: Store;

  /** @internal */
  constructor(store: Store) {
    this.#store = store;
  }

  /** Every project, including `cancelled` ones the API never shows, in creation order. @example `sim.data.projects.filter((p) => p.status === 'cancelled')` */
  get projects(): ProjectRecord[] {
    return this.#store.projects.map((p) => ({ ...p.record }));
  }

  /** The projects `GET /projects` lists (trial, active, past_due), in list order. @example `const [first] = sim.data.listedProjects;` */
  get listedProjects(): ProjectRecord[] {
    return this.#store.listedProjects().map((p) => ({ ...p.record }));
  }

  /** Id of a project owned by another account: every request about it answers 403. @example `await fetch(url + '/projects/' + sim.data.foreignProjectId + '/audits', init) // 403` */
  get foreignProjectId(): string {
    return [...this.#store.foreignProjectIds][0] ?? '';
  }

  /** The lazily generated keyword table of a project (`count`, `row(i)`, `history(id)`, …). @example `sim.data.keywords(id).count // 2500` */
  keywords(projectId: string): KeywordTable {
    return this.#project(projectId).keywords;
  }

  /** Prompt details of a project, in list order. @example `sim.data.prompts(id).find((p) => p.last_checked === null)` */
  prompts(projectId: string): PromptDetailRecord[] {
    return (this.#store.prompts.get(this.#project(projectId).record.id) ?? []).map((p) =>
      promptDetail(this.#store.seed, p),
    );
  }

  /** Audits of a project, most recent first. @example `sim.data.audits(id)[0]?.status` */
  audits(projectId: string): AuditRecord[] {
    const now = this.#store.now();
    return this.#audits(projectId).map((a) => auditRecord(a, now));
  }

  /** The latest completed audit, or `undefined` when there is none (the endpoint's 404). @example `sim.data.latestAudit(id)?.issues_summary` */
  latestAudit(projectId: string): LatestAuditRecord | undefined {
    const latest = this.#audits(projectId).find((a) => a.status === 'completed');
    return latest && latestAuditRecord(latest, this.#store.now());
  }

  /** Issues of an audit in served order (dismissed ones read `passed`). @example `sim.data.issues(id, auditId)[0]?.severity // 'critical'` */
  issues(projectId: string, auditId: string): AuditIssueRecord[] {
    const audit = this.#audits(projectId).find((a) => a.id === auditId);
    if (!audit) throw new Error(`Unknown audit ${auditId}`);
    return issueRecords(audit);
  }

  /** Backlink targets, summary, history, anchors and referring domains of a project. @example `sim.data.backlinks(id).anchors.length` */
  backlinks(projectId: string): BacklinkData {
    return structuredClone(this.#project(projectId).backlinks);
  }

  /** Content items with bodies, ordered by `scheduled_date`. @example `sim.data.content(id).filter((c) => c.status === 'Approved')` */
  content(projectId: string): ContentDetailRecord[] {
    return (this.#store.content.get(this.#project(projectId).record.id) ?? [])
      .map((c) => structuredClone(c.detail))
      .sort((a, b) => a.scheduled_date.localeCompare(b.scheduled_date) || a.id.localeCompare(b.id));
  }

  /** Content preferences of a project. @example `sim.data.preferences(id).preferences` */
  preferences(projectId: string): ContentPreferencesRecord {
    return { ...this.#project(projectId).preferences };
  }

  /** Live (not soft-deleted) reports of a project. @example `sim.data.reports(id).map((r) => r.id)` */
  reports(projectId: string): ReportRecord[] {
    return this.#store.liveReports(this.#project(projectId).record.id).map((r) => ({ ...r }));
  }

  /** Ids of soft-deleted reports of a project (they answer 404). @example `sim.data.deletedReportIds(id)[0]` */
  deletedReportIds(projectId: string): string[] {
    return (this.#store.reports.get(this.#project(projectId).record.id) ?? [])
      .filter((r) => r.deletedAt !== null)
      .map((r) => r.record.id);
  }

  /** Every webhook subscription. @example `sim.data.webhooks().filter((w) => w.active)` */
  webhooks(): WebhookRecord[] {
    return this.#store.webhooks.map((w) => ({ ...w, events: [...w.events] }));
  }

  #project(projectId: string): ProjectState {
    const project = this.#store.project(projectId);
    if (!project) throw new Error(`Unknown project ${projectId}`);
    return project;
  }

  #audits(projectId: string) {
    return [...(this.#store.audits.get(this.#project(projectId).record.id) ?? [])].sort(
      (a, b) => b.createdAt - a.createdAt,
    );
  }
}
