/**
 * How hard the suite fuzzes. The default keeps `npm test` inside the CI budget; heavy mode
 * (`RELIABILITY_RUNS=20`, alias `FUZZ_RUNS`) multiplies every fast-check `numRuns`.
 * `RELIABILITY_SEED` changes the fast-check seed (fixed by default, so the report is reproducible).
 */
const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env ?? {};

function readPositive(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return Number.isFinite(n) && n > 0 ? n : fallback;
}

/** The multiplier of every property's run count. */
export const RUNS = readPositive(env.RELIABILITY_RUNS ?? env.FUZZ_RUNS, 1);
/** The fast-check seed. */
export const SEED = Math.trunc(readPositive(env.RELIABILITY_SEED, 20_261_121));

/** fast-check parameters for a property whose default run count is `base`. */
export const runs = (base: number): { numRuns: number; seed: number; endOnFailure: boolean } => ({
  numRuns: Math.max(1, Math.round(base * RUNS)),
  seed: SEED,
  endOnFailure: true,
});

/** A test time-out that grows with the multiplier, for tests whose run count it scales. */
export const timeoutFor = (baseMs: number): number => Math.round(baseMs * Math.max(1, RUNS));

/** Settles a property run into its failure (`undefined` when it held), so rows are kept either way. */
export const failureOf = (run: Promise<void>): Promise<unknown> =>
  run.then(
    () => undefined,
    (error: unknown) => error ?? new Error('property failed'),
  );
