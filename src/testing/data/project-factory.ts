import type { ProjectState, Store } from '../store.js';
import type { SimProductMode, ProjectRecord } from '../records.js';
import { makeBacklinks } from './backlinks.js';
import { KeywordTable } from './keywords.js';
import { DAY_MS, HOUR_MS, dayOf, isoTime } from './time.js';

/** Daily keyword scans complete at 02:00 UTC (the reference shows no time; this is the simulator's). */
export const SCAN_HOUR_MS = 2 * HOUR_MS;

/** Latest scan time at or before `t`. @internal */
export function lastScanBefore(t: number): number {
  return Math.floor((t - SCAN_HOUR_MS) / DAY_MS) * DAY_MS + SCAN_HOUR_MS;
}

/** Input for a new project. @internal */
export interface ProjectSpec {
  id: string;
  name: string;
  brand: string;
  domain: string;
  websiteUrl: string;
  category: string;
  terms: readonly string[];
  status: ProjectRecord['status'];
  productMode: SimProductMode;
  createdAt: number;
  keywordCount: number;
  /** Relative size of the backlink profile; 0 for none. */
  backlinkSize: number;
  /** Whether the project runs weekly audits and gets new content. */
  recurring: boolean;
}

/**
 * Builds the state of one project, registers it in the store and returns it.
 * @example `makeProject(store, { id, name: 'Acme', ... })`
 * @internal
 */
export function makeProject(store: Store, spec: ProjectSpec): ProjectState {
  const now = store.now();
  const index = store.projects.length;
  const state: ProjectState = {
    record: {
      id: spec.id,
      name: spec.name,
      status: spec.status,
      serviceType: spec.productMode === 'managed' ? 'managed_seo' : 'seo_software',
      productMode: spec.productMode,
      websiteUrl: spec.websiteUrl,
      createdAt: isoTime(spec.createdAt),
    },
    index,
    brand: spec.brand,
    domain: spec.domain,
    category: spec.category,
    terms: spec.terms,
    // The table reads the scan day through a closure so a scan (clock advance) moves every row.
    keywords: new KeywordTable({
      seed: store.seed,
      projectIndex: index,
      terms: spec.terms,
      count: spec.keywordCount,
      scanDay: () => dayOf(state.lastScanAt),
    }),
    lastScanAt: lastScanBefore(now),
    nextAuditAt: null,
    nextContentAt: spec.recurring ? now + (3 * DAY_MS - (spec.createdAt % DAY_MS)) : null,
    preferences: {
      project_id: spec.id,
      preferences: `Write for ${spec.brand} customers: friendly, expert, no jargon. Always link to ${spec.websiteUrl}.`,
      updated_at: isoTime(spec.createdAt),
    },
    backlinks: makeBacklinks(store.rng, spec.id, spec.domain, spec.brand, dayOf(now), spec.backlinkSize),
  };
  store.addProject(state);
  return state;
}

/**
 * Turns a website URL into a brand name and bare domain for a project created through the API.
 * @example `brandFromUrl('https://www.blue-fox.io/') // { brand: 'Blue Fox', domain: 'blue-fox.io' }`
 * @internal
 */
export function brandFromUrl(url: URL): { brand: string; domain: string } {
  const domain = url.hostname.replace(/^www\./, '');
  const stem = domain.split('.')[0] ?? domain;
  const brand = stem
    .split(/[-_]/)
    .filter(Boolean)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(' ');
  return { brand: brand || domain, domain };
}
