/**
 * Model-based: copies of a chaos account through runs on successive days, some stopped part-way
 * and resumed, while the chaos mode changes the lists between pages and between runs, skews the
 * server's clock, and throws every request-level fault and hostile value at the client. After each
 * completed run the copy is compared with the simulator's truth.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useFakeClock } from './support/clock.js';
import { chaosSeeds, timeoutFor, Verdicts } from './support/seeds.js';
import { checkSyncSeed, PROFILES } from './support/sync-model.js';

const FILE = 'test/chaos/sync.test.ts';
afterEach(() => vi.useRealTimers());

describe.each(PROFILES)(
  'chaos ($name): a copy through runs on successive days, stopped and resumed, against the truth',
  (profile) => {
    it(
      'completes; no live row marked deleted or lost; deletes marked; snapshots whole; settles; no key anywhere; few 429s',
      async () => {
        const verdicts = new Verdicts(FILE);
        for (const seed of chaosSeeds(profile.fast)) {
          const dir = mkdtempSync(join(tmpdir(), 'sv-chaos-'));
          useFakeClock();
          try {
            await checkSyncSeed(seed, profile, join(dir, 'copy.db'), verdicts);
          } finally {
            vi.useRealTimers();
            rmSync(dir, { recursive: true, force: true });
          }
        }
        console.info(verdicts.summary(`sync (${profile.name})`, chaosSeeds(profile.fast).length));
        expect(verdicts.breaks).toEqual([]);
      },
      timeoutFor(profile.fast, 120_000),
    ); // heavy mode adds the 1,700-field record: SQLite spends ~10 s a table adding its columns
  },
);
