/**
 * The chaos suite's verdicts as reliability rows: a few seeds of the iteration and sync models
 * (test/chaos/), each property one row saying whether it held for every seed, and which seeds
 * broke it (replay: `CHAOS_SEED=<seed> npx vitest run test/chaos/<file>`). The chaos mode's own
 * determinism is a row too: a seed that does not replay cannot be debugged.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, test, vi } from 'vitest';
import { createSimulator } from '../../src/testing/index.js';
import { useFakeClock } from '../chaos/support/clock.js';
import { checkIterationSeed, LISTS } from '../chaos/support/iteration-model.js';
import {
  COMPLETES,
  DELETES_MARKED,
  EXACTLY_ONCE,
  FEW_429,
  NO_KEY,
  NO_LIVE_MARKED,
  NONE_LOST,
  PROTO_SAFE,
  RIDES_OUT_FAULTS,
  SETTLES,
  SNAPSHOT_COUNTS,
  TYPED_ERRORS,
} from '../chaos/support/properties.js';
import { chaosSeeds, type Property, Verdicts } from '../chaos/support/seeds.js';
import { checkSyncSeed, PROFILES } from '../chaos/support/sync-model.js';
import { useReport } from './support/report.js';

const report = useReport('chaos');
afterEach(() => vi.useRealTimers());

const held = (verdicts: Verdicts, property: Property, seeds: number): string => {
  const broke = verdicts.seedsThatBroke(property);
  return broke.length === 0 ? `held for ${seeds} seeds` : `broke for seeds ${broke.join(', ')}`;
};

describe('the chaos suite, a few seeds', () => {
  test('the chaos mode replays a seed exactly', async () => {
    const journals = await Promise.all(
      [0, 1].map(async () => {
        const sim = createSimulator({
          seed: 3,
          now: () => Date.UTC(2026, 5, 10, 12),
          rateLimit: false,
          chaos: { seed: 99, rate: 0.5, listItems: 200, slowChunkMs: 0 },
        });
        const project = sim.data.listedProjects[0]?.id as string;
        for (let offset = 0; offset < 250; offset += 50) {
          await sim
            .fetch(`${sim.baseUrl}/projects/${project}/backlinks/anchors?limit=50&offset=${offset}`, {
              headers: { authorization: `Bearer ${sim.keys.readOnly}` },
            })
            .then(
              (r) => r.text(),
              () => '',
            );
        }
        return JSON.stringify(sim.chaos?.journal);
      }),
    );
    report.check({
      area: 'Chaos: replay',
      input: 'one seed, two simulators, five pages of a drifting list',
      cases: 2,
      expected: 'identical journals',
      observed: journals[0] === journals[1] ? 'identical journals' : 'the journals differ',
      serverSaw: 'n/a',
    });
  });

  test.each(LISTS)(
    'for await over $name',
    async (list) => {
      const seeds = chaosSeeds(3);
      const verdicts = new Verdicts('test/chaos/iteration.test.ts');
      for (const seed of seeds) {
        useFakeClock();
        try {
          await checkIterationSeed(seed, list, verdicts);
        } finally {
          vi.useRealTimers();
        }
      }
      const properties = [EXACTLY_ONCE, RIDES_OUT_FAULTS, SETTLES, NO_KEY, FEW_429, TYPED_ERRORS, PROTO_SAFE];
      report.checkAll(
        properties.map((p) => ({
          area: `Chaos: for await over ${list.name}`,
          input: `${p.name} (guards ${p.guards})`,
          cases: seeds.length,
          expected: `held for ${seeds.length} seeds`,
          observed: held(verdicts, p, seeds.length),
          serverSaw: 'n/a',
        })),
      );
    },
    60_000,
  );

  test('a copy through runs on successive days, stopped and resumed', async () => {
    const profile = PROFILES[0]!;
    const seeds = chaosSeeds(2);
    const verdicts = new Verdicts('test/chaos/sync.test.ts');
    for (const seed of seeds) {
      const dir = mkdtempSync(join(tmpdir(), 'sv-chaos-rows-'));
      useFakeClock();
      try {
        await checkSyncSeed(seed, profile, join(dir, 'copy.db'), verdicts);
      } finally {
        vi.useRealTimers();
        rmSync(dir, { recursive: true, force: true });
      }
    }
    const properties = [
      COMPLETES,
      RIDES_OUT_FAULTS,
      NONE_LOST,
      NO_LIVE_MARKED,
      DELETES_MARKED,
      SNAPSHOT_COUNTS,
      SETTLES,
      NO_KEY,
      FEW_429,
      TYPED_ERRORS,
    ];
    report.checkAll(
      properties.map((p) => ({
        area: 'Chaos: sync copy (SQLite), every kind',
        input: `${p.name} (guards ${p.guards})`,
        cases: seeds.length,
        expected: `held for ${seeds.length} seeds`,
        observed: held(verdicts, p, seeds.length),
        serverSaw: 'n/a',
      })),
    );
  }, 120_000);
});
