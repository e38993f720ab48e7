import type * as z from 'zod/mini';
import { InvalidArgumentError } from '../errors/client-errors.js';

/**
 * Turns the first problem zod found in an options object into an `InvalidArgumentError` that names
 * the option's full path (`rateLimit.windows[0].windowMs`) and what is allowed; an unknown key
 * names the closest known one.
 *
 * @internal
 */
export function optionError(issues: readonly z.core.$ZodIssue[], root: string, known: Record<string, readonly string[]>): InvalidArgumentError {
  const { issue, path } = pick(issues, []);
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0] ?? '';
    const at = join(root, path);
    const name = `${at}${at === '' ? '' : '.'}${key}`;
    return new InvalidArgumentError(name, unknownKey(key, at, known[shapeOf(path)] ?? []));
  }
  return new InvalidArgumentError(join(root, path) || 'options', issue.message);
}

/** The most useful issue: an unknown key first (it explains the rest), and inside a union the branch whose type matched. */
function pick(issues: readonly z.core.$ZodIssue[], prefix: PropertyKey[]): { issue: z.core.$ZodIssue; path: PropertyKey[] } {
  const first = issues.find((i) => i.code === 'unrecognized_keys') ?? issues[0]!;
  const path = [...prefix, ...first.path];
  if (first.code === 'invalid_union') {
    // A branch whose issues all sit below its root matched the value's shape: report from it.
    const branch = first.errors.find((b) => b.length > 0 && b.every((i) => i.path.length > 0 || i.code === 'unrecognized_keys' || i.code === 'invalid_union'));
    if (branch) return pick(branch, path);
  }
  return { issue: first, path };
}

/** `rateLimit.windows[0].windowMs` from ['rateLimit', 'windows', 0, 'windowMs']. */
function join(root: string, path: PropertyKey[]): string {
  let out = root;
  for (const part of path) out += typeof part === 'number' ? `[${part}]` : `${out === '' ? '' : '.'}${String(part)}`;
  return out;
}

/** The key of {@link KNOWN_KEYS}: indices become `[]`. */
function shapeOf(path: PropertyKey[]): string {
  return join('', path.map((p) => (typeof p === 'number' ? 0 : p))).replace(/\[0\]/g, '[]');
}

// Spellings another tool uses for the same option: the simulator's windows say `windowMs`.
const ALIASES: Record<string, string> = { windowMs: 'intervalMs', window: 'intervalMs', interval: 'intervalMs', retries: 'maxRetries', key: 'apiKey', url: 'baseUrl', prefixUrl: 'baseUrl' };
// Keys that belong somewhere else entirely.
const ELSEWHERE: Record<string, string> = {
  redis: "a budget shared through Redis is `rateLimit: redisRateLimit({ redis })` from 'seo-visibility/redis'",
  signal: 'an AbortSignal is a per-call option: the last argument of each method',
};

function unknownKey(key: string, at: string, known: readonly string[]): string {
  const elsewhere = ELSEWHERE[key];
  if (elsewhere !== undefined) return `not an option here; ${elsewhere}`;
  const alias = ALIASES[key];
  const closest = alias !== undefined && known.includes(alias) ? alias : closestKey(key, known);
  const prefix = at === '' ? '' : `${at}.`;
  if (closest !== undefined) return `not an option; did you mean ${prefix}${closest}?`;
  return `not an option; ${at === '' ? 'the options are' : `${at} takes`} ${known.join(', ')}`;
}

/** The known key at the smallest edit distance (case ignored), when it is close enough to be a typo. */
export function closestKey(key: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of known) {
    const d = distance(key.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return bestDistance <= Math.max(2, Math.floor(key.length / 2)) ? best : undefined;
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
