import type { ContentDetailRecord, ContentItemRecord, SimContentStatus } from '../records.js';
import type { Rng } from './rng.js';
import { DAY_MS, HOUR_MS, isoTime } from './time.js';
import { CONTENT_TYPES, STATUS_COLORS, TITLE_TEMPLATES } from './vocab.js';

/** Stored content item: the detail record plus when its status next changes. @internal */
export interface ContentState {
  detail: ContentDetailRecord;
  projectId: string;
  /** When the status next moves along the workflow; `null` once published. */
  nextAt: number | null;
}

/**
 * Workflow the simulator runs (the reference shows no transitions; this is its choice):
 * Revising → Needs Approval → Approved (or back to Revising) → Published on the scheduled date.
 * @internal
 */
export function nextStatus(rng: Rng, state: ContentState): { status: SimContentStatus; nextAt: number | null } {
  const at = state.nextAt ?? 0;
  const scheduled = Date.parse(state.detail.scheduled_date);
  switch (state.detail.status) {
    case 'Revising':
      return { status: 'Needs Approval', nextAt: at + 24 * HOUR_MS };
    case 'Needs Approval':
      return rng.chance(0.3)
        ? { status: 'Revising', nextAt: at + 12 * HOUR_MS }
        : { status: 'Approved', nextAt: Math.max(scheduled, at + HOUR_MS) };
    default:
      return { status: 'Published', nextAt: null };
  }
}

/**
 * When a freshly seeded or changed item next moves.
 * @internal
 */
export function firstTransition(status: SimContentStatus, at: number, scheduled: number): number | null {
  if (status === 'Published') return null;
  if (status === 'Approved') return Math.max(scheduled, at + HOUR_MS);
  return at + (status === 'Revising' ? 12 : 24) * HOUR_MS;
}

/**
 * Makes one content item.
 * @example `makeContent(rng, project.id, ['hiking boots'], Date.now() + 7 * DAY_MS, 'Approved', Date.now())`
 * @internal
 */
export function makeContent(
  rng: Rng,
  projectId: string,
  terms: readonly string[],
  scheduledAt: number,
  status: SimContentStatus,
  createdAt: number,
): ContentState {
  const term = rng.pick(terms);
  const title = rng.pick(TITLE_TEMPLATES).replace(
    '{t}',
    term.replace(/\b\w/g, (c) => c.toUpperCase()),
  );
  const [type, typeColor] = rng.pick(CONTENT_TYPES);
  const id = rng.uuid();
  const hasBody = status !== 'Needs Approval' || rng.chance(0.5);
  const words = rng.int(700, 2400);
  const detail: ContentDetailRecord = {
    id,
    title,
    description: rng.chance(0.8) ? `An in-depth look at ${term} for readers comparing their options.` : null,
    scheduled_date: isoTime(scheduledAt),
    due_date: rng.chance(0.7) ? isoTime(scheduledAt - rng.int(2, 5) * DAY_MS) : null,
    status,
    status_color: STATUS_COLORS[status] ?? '#64748b',
    content_type: type,
    content_type_color: typeColor,
    priority: rng.int(1, 5),
    document_url: hasBody ? `https://docs.example.com/d/${id.slice(0, 8)}` : null,
    source_url: rng.chance(0.3)
      ? `https://${rng.pick(['reddit.com', 'nytimes.com', 'outsideonline.com'])}/${term.replace(/\s+/g, '-')}`
      : null,
    featured_image_url: rng.chance(0.6) ? `https://images.example.com/${id.slice(0, 8)}.jpg` : null,
    created_at: isoTime(createdAt),
    updated_at: isoTime(createdAt),
    content_body: hasBody ? articleHtml(title, term) : null,
    meta_data: hasBody
      ? {
          word_count: words,
          reading_time: Math.ceil(words / 230),
          revision_notes: status === 'Revising' ? 'Tighten the intro and add a comparison table.' : null,
        }
      : null,
  };
  return { detail, projectId, nextAt: firstTransition(status, createdAt, scheduledAt) };
}

/**
 * The list shape of an item (detail minus body and metadata).
 * @internal
 */
export function contentListItem(state: ContentState): ContentItemRecord {
  const { content_body: _body, meta_data: _meta, ...item } = state.detail;
  return item;
}

function articleHtml(title: string, term: string): string {
  return [
    `<h1>${title}</h1>`,
    `<p>Choosing the right ${term} starts with knowing how you will use it.</p>`,
    `<h2>What matters most</h2>`,
    `<ul><li>Fit and comfort</li><li>Durability</li><li>Price against value</li></ul>`,
    `<p>We compared the most popular ${term} options and summarise what we found below.</p>`,
  ].join('\n');
}
