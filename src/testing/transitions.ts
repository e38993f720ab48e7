import { makeIssues } from './data/audits.js';
import type { AuditState } from './data/audits.js';
import { makeContent, nextStatus } from './data/content.js';
import type { ContentState } from './data/content.js';
import { latestAggregates, roundTime } from './data/prompts.js';
import type { PromptState } from './data/prompts.js';
import { DAY_MS, HOUR_MS, MINUTE_MS, dayOf, isoTime } from './data/time.js';
import { STATUS_COLORS } from './data/vocab.js';
import { makeEvent } from './events.js';
import type { PendingEvent } from './events.js';
import type { ProjectState, Store } from './store.js';

/** Upper bound on transitions per `advance`, so a huge jump can never spin forever. */
const MAX_STEPS = 200_000;

interface Step {
  at: number;
  run: () => PendingEvent[];
}

/**
 * Runs, in time order, every transition due at or before `until` and returns the events they
 * produced. The workflow (the reference shows no transitions; these timings are the simulator's):
 * - audits: pending → crawling after 2 min (`audit.started`) → processing when the crawl ends →
 *   completed 3 min later (`audit.completed`) or failed; a new audit is queued weekly;
 * - keywords: a daily scan at 02:00 UTC moves every position (`keywords.updated`, once per project);
 * - prompts: each prompt is re-analysed daily (`prompts.updated`);
 * - content: Revising → Needs Approval → Approved (or back to Revising) → Published on its
 *   scheduled date (`content.status_changed`), and a new item every 3 days (`content.created`).
 *
 * @example `const events = runDue(store, sim.now() + 86_400_000);`
 * @internal
 */
export function runDue(store: Store, until: number): PendingEvent[] {
  const events: PendingEvent[] = [];
  for (let i = 0; i < MAX_STEPS; i++) {
    const step = earliest(store);
    if (!step || step.at > until) break;
    events.push(...step.run());
  }
  return events;
}

function earliest(store: Store): Step | undefined {
  let best: Step | undefined;
  const offer = (at: number | null, run: () => PendingEvent[]) => {
    if (at !== null && (!best || at < best.at)) best = { at, run };
  };
  for (const p of store.listedProjects()) {
    const id = p.record.id;
    offer(p.lastScanAt + DAY_MS, () => scan(store, p));
    offer(p.nextAuditAt, () => queueAudit(store, p));
    offer(p.nextContentAt, () => addContent(store, p));
    for (const a of store.audits.get(id) ?? []) offer(a.nextAt, () => stepAudit(store, a));
    for (const pr of store.prompts.get(id) ?? []) offer(pr.nextAt, () => analyse(store, pr));
    for (const c of store.content.get(id) ?? []) offer(c.nextAt, () => stepContent(store, c));
  }
  return best;
}

function scan(store: Store, p: ProjectState): PendingEvent[] {
  p.lastScanAt += DAY_MS;
  if (p.keywords.count === 0) return [];
  const updated = p.keywords.scannedCount();
  return [
    makeEvent('keywords.updated', p.lastScanAt, p.record.id, { keywords_updated: updated, job_id: store.rng.uuid() }),
  ];
}

function queueAudit(store: Store, p: ProjectState): PendingEvent[] {
  const at = p.nextAuditAt ?? 0;
  p.nextAuditAt = at + 7 * DAY_MS;
  const audit: AuditState = {
    id: store.rng.uuid(),
    projectId: p.record.id,
    target_url: p.record.websiteUrl,
    status: 'pending',
    max_crawl_pages: store.rng.pick([250, 500, 1000]),
    pages_crawled: 0,
    createdAt: at,
    startedAt: null,
    completedAt: null,
    crawlMs: store.rng.int(8, 15) * MINUTE_MS,
    nextAt: at + 2 * MINUTE_MS,
    willFail: store.rng.chance(0.1),
    issues: [],
  };
  audit.pages_crawled = audit.willFail
    ? store.rng.int(3, 40)
    : store.rng.int(Math.round(audit.max_crawl_pages * 0.6), audit.max_crawl_pages);
  store.audits.get(p.record.id)?.unshift(audit);
  return [];
}

function stepAudit(store: Store, a: AuditState): PendingEvent[] {
  const at = a.nextAt ?? 0;
  switch (a.status) {
    case 'pending':
      a.status = 'crawling';
      a.startedAt = at;
      a.nextAt = at + a.crawlMs;
      return [
        makeEvent('audit.started', at, a.projectId, {
          audit_id: a.id,
          target_url: a.target_url,
          max_crawl_pages: a.max_crawl_pages,
        }),
      ];
    case 'crawling':
      a.status = 'processing';
      a.nextAt = at + 3 * MINUTE_MS;
      return [];
    default:
      a.nextAt = null;
      a.completedAt = at;
      if (a.willFail) {
        a.status = 'failed';
        return [];
      }
      a.status = 'completed';
      a.issues = makeIssues(store.rng, a.pages_crawled, at);
      return [
        makeEvent('audit.completed', at, a.projectId, {
          audit_id: a.id,
          target_url: a.target_url,
          pages_crawled: a.pages_crawled,
        }),
      ];
  }
}

function analyse(store: Store, p: PromptState): PendingEvent[] {
  const at = p.nextAt;
  p.rounds++;
  p.nextAt = roundTime(p, p.rounds);
  const agg = latestAggregates(store.seed, p);
  return [
    makeEvent('prompts.updated', at, p.projectId, {
      prompt_id: p.id,
      visibility_percentage: agg.visibility_percentage,
      average_position: agg.average_position,
      best_model: agg.best_model,
      models_checked: p.models.length,
    }),
  ];
}

function stepContent(store: Store, c: ContentState): PendingEvent[] {
  const at = c.nextAt ?? 0;
  const next = nextStatus(store.rng, c);
  Object.assign(c.detail, {
    status: next.status,
    status_color: STATUS_COLORS[next.status] ?? '#64748b',
    updated_at: isoTime(at),
  });
  c.nextAt = next.nextAt;
  return [
    makeEvent('content.status_changed', at, c.projectId, {
      content_id: c.detail.id,
      title: c.detail.title,
      new_status: next.status,
    }),
  ];
}

function addContent(store: Store, p: ProjectState): PendingEvent[] {
  const at = p.nextContentAt ?? 0;
  p.nextContentAt = at + 3 * DAY_MS;
  const scheduled = (dayOf(at) + 14) * DAY_MS + 9 * HOUR_MS;
  const item = makeContent(store.rng, p.record.id, p.terms, scheduled, 'Needs Approval', at);
  store.content.get(p.record.id)?.push(item);
  const d = item.detail;
  return [
    makeEvent('content.created', at, p.record.id, {
      content_id: d.id,
      title: d.title,
      content_type: d.content_type,
      scheduled_date: d.scheduled_date,
    }),
  ];
}
