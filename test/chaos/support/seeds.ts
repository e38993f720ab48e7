/**
 * Which chaos seeds a run tries, and the one-line command that replays a failing one.
 *
 * - `CHAOS_SEED=123`: that seed alone (a failing seed's replay).
 * - `CHAOS_RUNS=500` (or `npm run test:chaos:heavy`): that many seeds per property, from fast-check.
 * - Default: the fast set, a few seeds per property, so `npm test` stays within seconds.
 */
import fc from 'fast-check';

const env = process.env;

/** The seed to replay, when `CHAOS_SEED` is set. */
export const REPLAY_SEED: number | undefined = env.CHAOS_SEED === undefined || env.CHAOS_SEED === '' ? undefined : Number(env.CHAOS_SEED);
/** Seeds per property: `CHAOS_RUNS`, else the property's fast default. */
export const runsFor = (fast: number): number => (REPLAY_SEED !== undefined ? 1 : Math.max(1, Number(env.CHAOS_RUNS) || fast));
/** fast-check's own seed, so the fast set is the same on every machine (`CHAOS_FC_SEED` changes it). */
const FC_SEED = Number(env.CHAOS_FC_SEED) || 20_261_126;

/** The command that replays one seed of one test file. */
export const replayCommand = (seed: number, file: string): string => `CHAOS_SEED=${seed} npx vitest run ${file}`;

/** A property failure that names its seed and the command to replay it. */
export class ChaosFailure extends Error {
  override name = 'ChaosFailure';
  constructor(seed: number, file: string, property: string, detail: string) {
    super(`chaos seed ${seed} broke "${property}": ${detail}\n  replay: ${replayCommand(seed, file)}`);
  }
}

/**
 * Runs `check` for each chosen seed (one seed with `CHAOS_SEED`). fast-check draws the seeds; no
 * shrinking (a seed is the whole schedule: there is nothing smaller to try), and the first failure
 * ends the run with its replay line.
 */
export async function forEachSeed(fast: number, check: (seed: number) => Promise<void>): Promise<void> {
  if (REPLAY_SEED !== undefined) return check(REPLAY_SEED);
  await fc.assert(fc.asyncProperty(fc.integer({ min: 1, max: 2_000_000_000 }), check), { numRuns: runsFor(fast), seed: FC_SEED, endOnFailure: true });
}
