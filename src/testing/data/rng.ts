/**
 * Seeded, dependency-free pseudo-randomness for the simulator.
 *
 * Two tools, one job: `hash32` derives a stable number from a tuple (so a keyword row can be rebuilt
 * from `(seed, project, index, day)` on demand without storing it), and `Rng` is a sequential
 * generator for things created one after another (seeded records, ids of created objects).
 * Same seed ⇒ same numbers, on every platform: only 32-bit integer maths (`Math.imul`) is used.
 *
 * @internal
 */

/**
 * Mixes any number of integers (and strings) into one unsigned 32-bit hash.
 *
 * @example
 * ```ts
 * hash32(1, 'keyword', 42) === hash32(1, 'keyword', 42); // true, on every run
 * ```
 * @internal
 */
export function hash32(...parts: ReadonlyArray<number | string>): number {
  let h = 0x811c9dc5;
  for (const part of parts) {
    if (typeof part === 'string') {
      for (let i = 0; i < part.length; i++) h = Math.imul(h ^ part.charCodeAt(i), 0x01000193);
    } else {
      // Split doubles into two 32-bit halves so large numbers (timestamps) still mix fully.
      h = mix(h ^ (part >>> 0));
      h = mix(h ^ Math.floor(part / 0x1_0000_0000));
    }
    h = mix(h ^ 0x9e3779b9);
  }
  return mix(h) >>> 0;
}

/** murmur3 finalizer: avalanches every input bit into every output bit. */
function mix(x: number): number {
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
  return (x ^ (x >>> 16)) >>> 0;
}

/**
 * A float in [0, 1) derived from a tuple; the stateless twin of `Rng.next()`.
 *
 * @example
 * ```ts
 * const share = unit(seed, 'paused', index); // 0 ≤ share < 1
 * ```
 * @internal
 */
export function unit(...parts: ReadonlyArray<number | string>): number {
  return hash32(...parts) / 0x1_0000_0000;
}

/**
 * An RFC 4122-shaped (version 4, variant 1) UUID derived from a tuple, so ids are stable per seed.
 *
 * @example
 * ```ts
 * hashUuid(1, 'project', 0); // e.g. '3f2a9c1e-7b4d-4e21-9a0f-5c6d7e8f9a0b'
 * ```
 * @internal
 */
export function hashUuid(...parts: ReadonlyArray<number | string>): string {
  const hex = [0, 1, 2, 3]
    .map((i) =>
      hash32(...parts, 'uuid', i)
        .toString(16)
        .padStart(8, '0'),
    )
    .join('');
  return formatUuid(hex);
}

/** Lays 32 hex digits out as a version-4 UUID (version and variant nibbles forced). @internal */
export function formatUuid(hex: string): string {
  const variant = ((parseInt(hex.charAt(16), 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * Sequential seeded generator (mulberry32). Used where records are made in order.
 *
 * @example
 * ```ts
 * const rng = new Rng(7);
 * rng.int(1, 100); // same value for seed 7 on every run
 * ```
 * @internal
 */
export class Rng {
  #state: number;

  constructor(seed: number) {
    this.#state = hash32(seed, 'rng');
  }

  /** A float in [0, 1). */
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 0x1_0000_0000;
  }

  /** An integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /** One element of a non-empty array. */
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** A fresh version-4 UUID from the sequence. */
  uuid(): string {
    return hashUuid(this.int(0, 0x7fffffff), this.int(0, 0x7fffffff));
  }

  /** `length` lowercase hex digits. */
  hex(length: number): string {
    let out = '';
    while (out.length < length) out += this.int(0, 0xffff).toString(16).padStart(4, '0');
    return out.slice(0, length);
  }

  /** A shuffled copy (Fisher–Yates). */
  shuffle<T>(items: readonly T[]): T[] {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = this.int(0, i);
      [out[i], out[j]] = [out[j] as T, out[i] as T];
    }
    return out;
  }
}
