import { hash32, unit } from '../data/rng.js';

/**
 * Deterministic draws for the chaos mode: every choice is a hash of the chaos seed, the run number
 * and the names of what is being decided (method, URL, attempt), so the same seed makes the same
 * choices whatever order concurrent requests arrive in. No `Math.random`.
 *
 * @example
 * ```ts
 * const draw = new Draw(42, 1);
 * draw.chance(0.2, 'fault', 'GET /projects', 1); // same answer for seed 42, run 1, every time
 * ```
 * @internal
 */
export class Draw {
  readonly #seed: number;
  readonly #run: number;

  constructor(seed: number, run: number) {
    this.#seed = seed;
    this.#run = run;
  }

  /** A float in [0, 1) for these parts. */
  unit(...parts: ReadonlyArray<string | number>): number {
    return unit(this.#seed, 'chaos', this.#run, ...parts);
  }

  /** True with probability `p`. */
  chance(p: number, ...parts: ReadonlyArray<string | number>): boolean {
    return p > 0 && this.unit(...parts) < p;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number, ...parts: ReadonlyArray<string | number>): number {
    return min + (hash32(this.#seed, 'chaos-int', this.#run, ...parts) % (max - min + 1));
  }

  /** One element of a non-empty array. */
  pick<T>(items: readonly T[], ...parts: ReadonlyArray<string | number>): T {
    return items[this.int(0, items.length - 1, ...parts)] as T;
  }
}
