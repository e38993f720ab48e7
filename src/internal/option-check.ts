import { InvalidArgumentError } from '../errors/client-errors.js';

/**
 * A small table-driven checker for option objects (client options, per-call options, custom
 * requests): each entry is a function that throws `InvalidArgumentError` naming the option's full
 * path (`rateLimit.windows[0].intervalMs`) and what is allowed. The phantom `t` carries the
 * accepted type, so `options/check-options.ts` can prove each table agrees with its public interface.
 *
 * @internal
 */
export interface Check<T> {
  (value: unknown, path: string): void;
  /** Type only: what the check accepts. */
  readonly t?: T;
  /** Set on optional entries: the key may be left out (or be `undefined`). */
  readonly o?: true;
  /** Set on object and array checks: what a union uses to pick the branch that explains a refusal. */
  readonly k?: 'o' | 'a';
}

/** What a check accepts. */
export type In<C> = C extends Check<infer T> ? T : never;
type Shape = Record<string, Check<unknown>>;
/** The object type a shape describes: optional entries are optional keys. */
export type ShapeIn<S extends Shape> = { [K in keyof S as S[K] extends { o: true } ? never : K]: In<S[K]> } & {
  [K in keyof S as S[K] extends { o: true } ? K : never]?: In<S[K]>;
};

/** An error that a key is unknown: it explains the other problems, so it is reported first. */
class UnknownKey extends InvalidArgumentError {}

/** `at` + `.key` (or `key` at the top level). */
export const sub = (at: string, key: string) => (at === '' ? key : `${at}.${key}`);

const fail = (path: string, message: string): never => {
  throw new InvalidArgumentError(path || 'options', message);
};

/** A check from a test and the message of a refusal. */
export const is =
  <T>(test: (v: unknown) => boolean, message: string): Check<T> =>
  (v, path) =>
    test(v) || fail(path, message);

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

export const optional = <T>(check: Check<T>): Check<T | undefined> & { o: true } =>
  Object.assign((v: unknown, path: string) => v === undefined || check(v, path), { o: true as const });

/** An array, each item checked (its index in the path). */
export const array = <T>(item: Check<T>, message: string): Check<T[]> =>
  Object.assign(
    (v: unknown, path: string) =>
      Array.isArray(v) ? v.forEach((x, i) => void item(x, `${path}[${i}]`)) : fail(path, message),
    { k: 'a' as const },
  );

/**
 * A strict object: an unknown key is refused first, naming the closest known key; then each entry,
 * where an unknown key deeper down still wins over another problem found before it.
 */
export const object = <S extends Shape>(shape: S, message: string): Check<ShapeIn<S>> =>
  Object.assign(
    (v: unknown, path: string) => {
      if (!isObject(v)) return fail(path, message);
      const known = Object.keys(shape);
      for (const key of Object.keys(v))
        if (!known.includes(key)) throw new UnknownKey(sub(path, key), unknownKey(key, path, known));
      let first: unknown;
      for (const key of known) {
        try {
          shape[key]!(v[key], sub(path, key));
        } catch (error) {
          if (error instanceof UnknownKey) throw error;
          first ??= error;
        }
      }
      if (first) throw first;
    },
    { k: 'o' as const },
  );

/**
 * `A | B` where `accepts` tells an `A` at a glance (`false`, a function) and `B` is an object or an
 * array: a value of `B`'s kind goes to `B` (so the message points inside it), anything else gets
 * the union's own message.
 */
export const union =
  <A, B>(accepts: (v: unknown) => v is A, b: Check<B>, message: string): Check<A | B> =>
  (v, path) =>
    accepts(v) ||
    (typeof v === 'object' && v !== null && (b.k === 'a') === Array.isArray(v) ? b(v, path) : fail(path, message));

/** An object of string keys to values `value` accepts. */
export const record =
  <V>(value: Check<V>, message: string): Check<Record<string, V>> =>
  (v, path) =>
    isObject(v) ? Object.keys(v).forEach((key) => void value(v[key], sub(path, key))) : fail(path, message);

/**
 * `86400000` → `86,400,000`. Not `toLocaleString`: these messages are built when the module loads,
 * and the first `toLocaleString` call loads Intl's locale data, about 13 ms of every import.
 */
const grouped = (n: number): string => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** A number in a range (durations), finite. */
export const numberIn = (min: number, max: number, unit: string): Check<number> =>
  is(
    (n) => typeof n === 'number' && n >= min && n <= max,
    `expected a number from ${grouped(min)} to ${grouped(max)}${unit}`,
  );

/** A safe integer in a range. */
export const integerIn = (min: number, max: number, message?: string): Check<number> =>
  is(
    (n) => Number.isSafeInteger(n) && (n as number) >= min && (n as number) <= max,
    message ??
      (max === Number.MAX_SAFE_INTEGER
        ? `expected an integer of ${min} or more`
        : `expected an integer from ${min} to ${grouped(max)}`),
  );

/** One of a few strings. */
export const oneOf = <const T extends readonly string[]>(values: T): Check<T[number]> =>
  is(
    (v) => values.includes(v as string),
    `expected ${values
      .map((v) => `'${v}'`)
      .join(', ')
      .replace(/, ([^,]*)$/, ' or $1')}`,
  );

export const string = (message: string): Check<string> => is((v) => typeof v === 'string', message);

export const fn = <F>(what: string): Check<F> => is((v) => typeof v === 'function', `expected ${what}`);

/** An object with these methods (a logger, a gate factory). */
export const withMethods = <T>(methods: string[], what: string): Check<T> =>
  is((v) => isObject(v) && methods.every((m) => typeof v[m] === 'function'), `expected ${what}`);

// Spellings other tools use for the same option (`windowMs` is express-rate-limit's, and was the
// simulator's before 0.2).
const ALIASES: Record<string, string> = {
  windowMs: 'intervalMs',
  window: 'intervalMs',
  interval: 'intervalMs',
  retries: 'maxRetries',
  key: 'apiKey',
  url: 'baseUrl',
  prefixUrl: 'baseUrl',
};
// Keys that belong somewhere else entirely.
const ELSEWHERE: Record<string, string> = {
  redis: "a budget shared through Redis is `rateLimit: redisRateLimit({ redis })` from 'seo-visibility/redis'",
  signal: 'an AbortSignal is a per-call option: the last argument of each method',
};

function unknownKey(key: string, at: string, known: readonly string[]): string {
  // Own keys only: a key such as `constructor` must not find Object.prototype's members.
  const elsewhere = Object.hasOwn(ELSEWHERE, key) ? ELSEWHERE[key] : undefined;
  if (elsewhere !== undefined) return `not an option here; ${elsewhere}`;
  const alias = Object.hasOwn(ALIASES, key) ? ALIASES[key] : undefined;
  const closest = alias !== undefined && known.includes(alias) ? alias : closestKey(key, known);
  if (closest !== undefined) return `not an option; did you mean ${sub(at, closest)}?`;
  return `not an option; ${at === '' ? 'the options are' : `${at} takes`} ${known.join(', ')}`;
}

/** The known key at the smallest edit distance (case ignored), when it is close enough to be a typo. */
export function closestKey(key: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of known) {
    const d = distance(key.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return bestDistance <= Math.max(2, key.length >> 1) ? best : undefined;
}

/** Levenshtein distance, one row at a time. */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j]!;
      row[j] = Math.min(above + 1, row[j - 1]! + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length]!;
}
