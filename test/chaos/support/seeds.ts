/**
 * Which chaos seeds a run tries, and how a failing one is reported: its property, what broke, the
 * issue item it covers, and the one-line command that replays it.
 *
 * - `CHAOS_SEED=123`: that seed alone (a failing seed's replay).
 * - `CHAOS_RUNS=500` (or `npm run test:chaos:heavy`): that many seeds per test, drawn by fast-check.
 * - Default: the fast set, a few seeds per test, so `npm test` stays within seconds.
 */
import fc from 'fast-check';

const env = process.env;

/** The seed to replay, when `CHAOS_SEED` is set. */
export const REPLAY_SEED: number | undefined =
  env.CHAOS_SEED === undefined || env.CHAOS_SEED === '' ? undefined : Number(env.CHAOS_SEED);
/** fast-check's own seed, so the fast set is the same on every machine (`CHAOS_FC_SEED` draws another set). */
const FC_SEED = Number(env.CHAOS_FC_SEED) || 20_261_126;

/** The seeds to try: `CHAOS_SEED` alone, or `CHAOS_RUNS` (else `fast`) seeds drawn by fast-check from its fixed seed. */
export function chaosSeeds(fast: number): number[] {
  if (REPLAY_SEED !== undefined) return [REPLAY_SEED];
  const count = Math.max(1, Number(env.CHAOS_RUNS) || fast);
  return fc.sample(fc.integer({ min: 1, max: 2_000_000_000 }), { numRuns: count, seed: FC_SEED });
}

/** How many seeds a test tried, for time-outs that grow with heavy mode. */
export const timeoutFor = (fast: number, perSeedMs: number): number =>
  Math.max(30_000, chaosSeeds(fast).length * perSeedMs);

/**
 * The command that replays one seed of one test file. A `*.system.test.ts` file runs under the
 * system config: the default one excludes it, so without it the replay would find no test.
 */
export const replayCommand = (seed: number, file: string): string =>
  `CHAOS_SEED=${seed} npx vitest run ${file.endsWith('.system.test.ts') ? '--config vitest.system.config.ts ' : ''}${file}`;

/** One property of the chaos suite: its name and the defects (issue 22) it stands guard over. */
export interface Property {
  name: string;
  guards: string;
}

/**
 * Collects every broken property of every seed (a seed does not stop the others), then fails once
 * with one line per break: seed, property, what broke, what it guards, and the replay command.
 */
export class Verdicts {
  readonly #file: string;
  readonly #breaks: string[] = [];
  readonly #seedsBy = new Map<string, Set<number>>();

  constructor(file: string) {
    this.#file = file;
  }

  /** Records that `property` broke for `seed`. */
  broke(seed: number, property: Property, detail: string): void {
    const seeds = this.#seedsBy.get(property.name) ?? new Set<number>();
    this.#seedsBy.set(property.name, seeds.add(seed));
    this.#breaks.push(
      `seed ${seed} broke "${property.name}" (${property.guards}): ${detail}\n    replay: ${replayCommand(seed, this.#file)}`,
    );
  }

  /** Checks `holds`; records a break when it is false. */
  check(seed: number, property: Property, holds: boolean, detail: () => string): void {
    if (!holds) this.broke(seed, property, detail());
  }

  /** The seeds that broke `property`, in the order they did. */
  seedsThatBroke(property: Property): number[] {
    return [...(this.#seedsBy.get(property.name) ?? [])];
  }

  /**
   * One line for the log: how many seeds ran and, per broken property, how many seeds broke it and
   * the first one (the figures a heavy run reports).
   */
  summary(label: string, seeds: number): string {
    const broken = [...this.#seedsBy].map(
      ([name, set]) => `"${name}" broke for ${set.size} (first: CHAOS_SEED=${[...set][0]})`,
    );
    return `chaos ${label}: ${seeds} seeds; ${broken.length === 0 ? 'every property held' : broken.join('; ')}`;
  }

  /** Every break, one per line (empty when all held). */
  get breaks(): string[] {
    return [...this.#breaks];
  }
}
