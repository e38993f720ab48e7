/**
 * System: a sync in a child process, SIGKILLed at seeded request counts and resumed, against the
 * simulator's HTTP form in chaos mode (every kind, the compression bomb included: only a real HTTP
 * client inflates it). After each completed run (a day), the copy is compared with the truth; every
 * child must end within its bound; the key must appear in nothing the child printed (its logger
 * and hooks) nor in the SQLite file.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAOS_KIND_NAMES, createSimulator, type Simulator, type SimulatorServer } from '../../src/testing/index.js';
import { hash32 } from '../../src/testing/data/rng.js';
import { journalText } from './support/account.js';
import { DAY, T0 } from './support/clock.js';
import { checkCopy } from './support/copy-checks.js';
import { COMPLETES, NO_KEY, SETTLES } from './support/properties.js';
import { chaosSeeds, timeoutFor, Verdicts } from './support/seeds.js';
import { bundleSyncChild, runKillable } from './support/killable-child.js';
import { touchedSince, truthOf } from './support/truth.js';

const FILE = 'test/chaos/kill-resume.system.test.ts';
const FAST = 2;
const DAYS = 2;
/** SIGKILLs per day before the run is let finish. */
const KILLS = 3;
/** Children one day may take after its kills before it counts as a copy that never completes. */
const MAX_RESUMES = 6;
/** One child's bound, in real time (a whole run of ~30 requests takes about a second here). */
const CHILD_BOUND_MS = 60_000;
/**
 * Every kind, the bomb included; the 1,700-field record only in heavy mode (`CHAOS_RUNS`): SQLite
 * spends ~10 s per table adding 1,700 columns, blocking the child's event loop so its requests time out.
 */
const KINDS = CHAOS_KIND_NAMES.filter((k) => process.env.CHAOS_RUNS !== undefined || k !== 'wide-record');
const DATASETS = ['projects.list', 'rankings.list', 'backlinks.anchors', 'content.list'];

let dir: string;
let script: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sv-chaos-kill-'));
  script = await bundleSyncChild(dir);
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('chaos (system): SIGKILLs of a child sync through chaos over HTTP, then resumes', () => {
  it(
    'every day completes with the truth in the copy; every child ends within its bound; no key anywhere',
    async () => {
      const verdicts = new Verdicts(FILE);
      let kills = 0;
      const seeds = chaosSeeds(FAST);
      for (const seed of seeds) kills += await checkSeed(seed, verdicts);
      console.info(`chaos kill test: ${seeds.length} seeds × ${DAYS} days, ${kills} SIGKILLs landed`);
      expect(kills).toBeGreaterThan(0);
      console.info(verdicts.summary('kill test', seeds.length));
      expect(verdicts.breaks).toEqual([]);
    },
    timeoutFor(FAST, 120_000),
  );
});

async function checkSeed(seed: number, verdicts: Verdicts): Promise<number> {
  let now = T0;
  // The simulator's clock runs with the wall clock from the day's noon (a gateway 429's window must
  // pass); the children date their snapshots with the day's noon, hours from midnight either way.
  const started = Date.now();
  const sim: Simulator = createSimulator({
    seed: 1 + (seed % 97),
    keywordsPerProject: 20,
    now: () => now + (Date.now() - started),
    rateLimit: false,
    chaos: { seed, rate: 0.15, listItems: 1_010, kinds: KINDS, bombBytes: 32 * 1024 * 1024, slowChunkMs: 200 },
  });
  const server: SimulatorServer = await sim.listen({ port: 0 });
  const db = join(dir, `copy-${seed}.db`);
  const printed: string[] = [];
  let landed = 0;
  try {
    for (let day = 0; day < DAYS; day++) {
      now = T0 + day * DAY;
      if (day > 0) sim.chaos?.nextRun();
      const start = truthOf(sim);
      const changesAtStart = sim.chaos?.changes.length ?? 0;
      const args = { baseUrl: server.url, apiKey: sim.keys.readOnly, db, now, datasets: DATASETS };
      let result: { snapshotDate: string; status: string } | undefined;
      let lastFailure = '';
      for (let child = 0; child < KILLS + MAX_RESUMES && result?.status !== 'completed'; child++) {
        const killAt = child < KILLS ? 1 + (hash32(seed, 'kill', day, child) % 8) : undefined;
        if (child > 0) sim.chaos?.nextRun();
        const outcome = await runKillable(script, args, killAt, CHILD_BOUND_MS);
        printed.push(...outcome.printed);
        if (outcome.hung) {
          verdicts.broke(
            seed,
            SETTLES,
            `day ${day} child ${child}: still running after ${CHILD_BOUND_MS / 1000} s; ${journalText(sim)}`,
          );
          return landed;
        }
        if (outcome.killed) landed++;
        if (outcome.failed) lastFailure = outcome.failed;
        result = outcome.result;
      }
      if (result?.status !== 'completed') {
        verdicts.broke(
          seed,
          COMPLETES,
          `day ${day}: not completed after ${KILLS} kills and ${MAX_RESUMES} resumes${lastFailure ? `; the last failed with: ${lastFailure}` : ''}; ${journalText(sim)}`,
        );
        return landed;
      }
      checkCopy(
        seed,
        day + 1,
        sim,
        db,
        start,
        touchedSince(sim, changesAtStart),
        { snapshotDate: new Date(now).toISOString().slice(0, 10) },
        verdicts,
      );
    }
    const key = sim.keys.readOnly;
    const leaks = [
      ...new Set(
        printed.filter((line) => line.includes(key)).map((line) => (JSON.parse(line) as { what: string }).what),
      ),
    ];
    if (readFileSync(db).toString('latin1').includes(key)) leaks.push('the SQLite file');
    verdicts.check(
      seed,
      NO_KEY,
      leaks.length === 0,
      () => `the key appears in: ${leaks.join(', ')}; ${journalText(sim)}`,
    );
    return landed;
  } finally {
    await server.close();
  }
}
