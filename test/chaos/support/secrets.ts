/**
 * Everything the SDK hands out during a chaos run, to search for the key: errors (inspected,
 * stringified, as JSON), logger lines, hook payloads, progress reports, results and stored rows.
 */
import { inspect } from 'node:util';

/** What a user or a log pipeline might print of a value. */
export function renderings(value: unknown): string[] {
  const out = [inspect(value, { depth: Infinity, showHidden: true, getters: true }), String(value)];
  try {
    out.push(JSON.stringify(value) ?? '');
  } catch {
    // A circular value cannot be stringified: nothing is printed that way.
  }
  if (value instanceof Error) out.push(value.message, value.stack ?? '');
  return out;
}

/** Outputs collected from one run, and where each came from. */
export class Outputs {
  readonly #items: Array<{ where: string; value: unknown }> = [];

  add(where: string, value: unknown): void {
    this.#items.push({ where, value });
  }

  /** Where the key appears (e.g. `hook onResponse`), if anywhere. */
  leaksOf(key: string): string[] {
    return [
      ...new Set(this.#items.filter((i) => renderings(i.value).some((text) => text.includes(key))).map((i) => i.where)),
    ];
  }

  get size(): number {
    return this.#items.length;
  }
}
