/**
 * Model-based: `for await` over paged lists while the chaos mode changes them between pages and
 * throws every request-level fault at the client. After each seed: every item live throughout the
 * read is yielded exactly once (or the read fails with a typed error), the read settles within a
 * bound of simulated time, no key reaches any output, and the API's own 429s stay few.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useFakeClock } from './support/clock.js';
import { checkIterationSeed, checkTwoClientsSeed, LISTS } from './support/iteration-model.js';
import { chaosSeeds, timeoutFor, Verdicts } from './support/seeds.js';

const FILE = 'test/chaos/iteration.test.ts';
const FAST = 5;

afterEach(() => vi.useRealTimers());

describe.each(LISTS)('chaos: for await over $name', (list) => {
  it(
    'yields each item live throughout exactly once (or fails typed), settles, leaks no key, draws few 429s',
    async () => {
      const verdicts = new Verdicts(FILE);
      for (const seed of chaosSeeds(FAST)) {
        useFakeClock();
        try {
          await checkIterationSeed(seed, list, verdicts);
        } finally {
          vi.useRealTimers();
        }
      }
      console.info(verdicts.summary(`for await over ${list.name}`, chaosSeeds(FAST).length));
      expect(verdicts.breaks).toEqual([]);
    },
    timeoutFor(FAST, 10_000),
  );
});

describe('chaos: two clients with one key in one process', () => {
  it(
    'draw few 429s between them, and settle',
    async () => {
      const verdicts = new Verdicts(FILE);
      const seeds = chaosSeeds(2);
      for (const seed of seeds) {
        useFakeClock();
        try {
          await checkTwoClientsSeed(seed, verdicts);
        } finally {
          vi.useRealTimers();
        }
      }
      console.info(verdicts.summary('two clients, one key', seeds.length));
      expect(verdicts.breaks).toEqual([]);
    },
    timeoutFor(2, 10_000),
  );
});
