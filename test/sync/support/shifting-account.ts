/**
 * A simulator account whose lists the test can change between two pages (test/helpers/shifting-list.ts),
 * read by a client through the simulator's in-process `fetch` (no socket), with the sync's clock on
 * the simulator's (`sim.advance` moves both), and a store in a fresh temporary folder.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SeoVisibilityClient } from '../../../src/index.js';
import { type SyncStore, sqliteStore } from '../../../src/sync/index.js';
import { createSimulator, type Simulator } from '../../../src/testing/index.js';
import { type ShiftingList, shiftingFetch } from '../../helpers/shifting-list.js';
import { T0 } from './account.js';

export interface ShiftingAccount {
  sim: Simulator;
  client: SeoVisibilityClient;
  /** The simulator's clock, for `runSync({ now })`. */
  now: () => number;
  /** A SQLite store in the account's folder (the same file for the same name). */
  store(name: string): SyncStore;
  path(name: string): string;
  close(): void;
}

/** Starts an account at T0 (noon UTC) whose `lists` are served from the test's arrays. */
export function shiftingAccount(lists: readonly ShiftingList[], options: { keywords?: number } = {}): ShiftingAccount {
  const sim = createSimulator({ seed: 7, keywordsPerProject: options.keywords ?? 10, now: () => T0, rateLimit: false });
  const client = new SeoVisibilityClient({
    apiKey: sim.keys.readOnly,
    baseUrl: sim.baseUrl,
    fetch: shiftingFetch(sim, lists),
    retryBackoff: { initialDelay: 1, maxDelay: 5 },
    rateLimit: { windows: false },
  });
  const dir = mkdtempSync(join(tmpdir(), 'sv-shift-'));
  const path = (name: string) => join(dir, `${name}.db`);
  return {
    sim,
    client,
    now: () => sim.now(),
    store: (name) => sqliteStore(path(name)),
    path,
    close: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** `n` project records in the wire's shape, with ids that differ from the simulator's. */
export function fakeProjects(n: number, from = 0): Array<Record<string, unknown>> {
  return Array.from({ length: n }, (_, i) => ({
    id: `00000000-0000-4000-8000-${String(from + i).padStart(12, '0')}`,
    name: `Project ${from + i}`,
    status: 'active',
    serviceType: 'seo_software',
    productMode: 'software',
    websiteUrl: `https://p${from + i}.example`,
    createdAt: '2025-04-15T19:00:00.000Z',
  }));
}
