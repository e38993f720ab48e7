/**
 * The rule that turns a wire field into a column name, the same in every SQL store (the NDJSON
 * store keeps field names as they are: JSON keys never collide).
 *
 * - A declared column of the table (`TableSchema.columns`) keeps its name.
 * - A field the server adds later keeps its name when it is lower-case letters, digits and `_`
 *   (not starting with a digit, at most 55 characters) and does not equal a declared or reserved
 *   column ignoring case: `traffic_share` stays `traffic_share`.
 * - Any other field becomes its name lower-cased, every other character `_`, cut to 40 characters,
 *   then `__` and 8 hex digits of a hash of the exact field name: `net-change` →
 *   `net_change__0b1f4a3e`, `Keyword` → `keyword__…`. So two fields never share a column (SQLite
 *   compares names ignoring case; Postgres cuts them at 63 bytes), and the name is the same in every
 *   run and every store whatever order the fields arrive in.
 *
 * Names are always quoted in SQL, so `group` or `order` are plain columns.
 * @internal
 */
export function columnFor(field: string, declared: ReadonlySet<string>, reservedLower: ReadonlySet<string>): string {
  if (declared.has(field)) return field;
  if (/^[a-z_][a-z0-9_]{0,54}$/.test(field) && !reservedLower.has(field)) return field;
  const base = field
    .toLowerCase()
    .replace(/[^a-z0-9_]/g, '_')
    .slice(0, 40);
  return `${/^[a-z_]/.test(base) ? base : `_${base}`}__${fnv1a32(field).toString(16).padStart(8, '0')}`;
}

/**
 * Field → column for one table, remembered per field (the rule is pure, so the cache can never go
 * stale).
 * @internal
 */
export class ColumnNames {
  readonly #declared: ReadonlySet<string>;
  readonly #reserved: ReadonlySet<string>;
  readonly #cache = new Map<string, string>();

  constructor(declared: readonly string[], extraReserved: readonly string[] = []) {
    this.#declared = new Set(declared);
    this.#reserved = new Set([...declared, ...extraReserved].map((c) => c.toLowerCase()));
  }

  of(field: string): string {
    let column = this.#cache.get(field);
    if (column === undefined) this.#cache.set(field, (column = columnFor(field, this.#declared, this.#reserved)));
    return column;
  }
}

/** A SQL identifier, double-quoted (SQLite and Postgres agree on the syntax). @internal */
export function quoteId(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** FNV-1a, 32 bits unsigned: short, stable, and enough to tell field names (or lock scopes) apart. @internal */
export function fnv1a32(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
