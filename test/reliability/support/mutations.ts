/**
 * fast-check arbitraries that damage a real response around its schema: a wrong type, a missing
 * field, an extra field (also `__proto__`/`constructor`), null, a huge string, deep nesting, or any
 * JSON value, at a path drawn from the data actually served. Deep nesting is spliced into the JSON
 * text (JSON.stringify cannot write 10,000 levels), so it goes through the wire as a server would send it.
 */
import fc from 'fast-check';

export const MUTATION_KINDS = [
  'wrong type',
  'missing field',
  'extra field',
  'null',
  'huge string',
  'deep nesting',
  'any JSON value',
] as const;
export type MutationKind = (typeof MUTATION_KINDS)[number];

/** One mutation, applied at `paths[pathIndex % paths.length]` of the data. */
export interface Mutation {
  kind: MutationKind;
  pathIndex: number;
  value: unknown;
  key: string;
  size: number;
}

const DEEP = '"__deep_nesting__"';

export const mutationArb: fc.Arbitrary<Mutation> = fc.record({
  kind: fc.constantFrom(...MUTATION_KINDS),
  pathIndex: fc.nat(),
  value: fc.jsonValue({ maxDepth: 3 }),
  // Keys no schema knows (a known optional field set to junk is a wrong type, not an extra field).
  key: fc.oneof(
    fc.string({ maxLength: 12 }).map((k) => `x_${k}`),
    fc.constantFrom('__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'),
  ),
  size: fc.integer({ min: 100_000, max: 400_000 }),
});

type Path = Array<string | number>;

/** Every path in `value` (root included), in a stable order. */
export function pathsOf(value: unknown, at: Path = [], out: Path[] = []): Path[] {
  out.push(at);
  if (Array.isArray(value)) value.forEach((item, i) => void pathsOf(item, [...at, i], out));
  else if (typeof value === 'object' && value !== null)
    for (const [k, v] of Object.entries(value)) pathsOf(v, [...at, k], out);
  return out;
}

function differentType(value: unknown): unknown {
  if (typeof value === 'string') return value.length;
  if (typeof value === 'number') return String(value);
  if (typeof value === 'boolean') return value ? 'true' : 0;
  if (Array.isArray(value)) return { ...value };
  if (typeof value === 'object' && value !== null) return Object.values(value);
  return 0;
}

/**
 * Applies the mutations to a copy of `data` and returns the JSON text of the whole envelope, plus
 * the kinds applied (a mutation whose path vanished under an earlier one is skipped).
 */
export function mutateEnvelope(
  data: unknown,
  meta: unknown,
  mutations: Mutation[],
): { text: string; kinds: MutationKind[]; deep: boolean; extraOnlyTopLevel: boolean } {
  const root = { data: structuredClone(data) };
  const kinds: MutationKind[] = [];
  let extraOnlyTopLevel = true;
  let deep: number | undefined;
  for (const m of mutations) {
    const paths = pathsOf(root.data).map((p) => ['data', ...p]);
    const path = paths[m.pathIndex % paths.length]!;
    const parent = path
      .slice(0, -1)
      .reduce<unknown>((node, k) => (node as Record<string | number, unknown>)[k], root) as Record<
      string | number,
      unknown
    >;
    const key = path[path.length - 1]!;
    const current = parent[key];
    kinds.push(m.kind);
    switch (m.kind) {
      case 'wrong type':
        parent[key] = differentType(current);
        break;
      case 'missing field':
        if (Array.isArray(parent)) parent.splice(Number(key), 1);
        else if (key === 'data') parent[key] = undefined;
        else delete parent[key];
        break;
      case 'extra field': {
        // On the object at the path, or the nearest object above it.
        let target: unknown;
        let targetDepth = 0;
        for (let depth = path.length; depth >= 1 && target === undefined; depth--) {
          const node = path.slice(0, depth).reduce<unknown>((n, k) => (n as Record<string | number, unknown>)[k], root);
          if (typeof node === 'object' && node !== null && !Array.isArray(node)) [target, targetDepth] = [node, depth];
        }
        // `data` itself, or a record of a list: always a loose object (deeper ones may be records,
        // whose every key is an entry that must validate).
        const topLevel = targetDepth === 1 || (targetDepth === 2 && Array.isArray(root.data));
        extraOnlyTopLevel &&= topLevel;
        // A new key: an existing one would be a changed field, not an extra one.
        const key = target && Object.hasOwn(target, m.key) ? `x_extra_${m.key}` : m.key;
        if (target)
          Object.defineProperty(target, key, { value: m.value, enumerable: true, writable: true, configurable: true });
        else kinds.pop();
        break;
      }
      case 'null':
        parent[key] = null;
        break;
      case 'huge string':
        parent[key] = 'x'.repeat(m.size);
        break;
      case 'deep nesting':
        if (deep !== undefined) {
          kinds.pop();
          break;
        }
        deep = 1000 + (m.size % 19_000);
        parent[key] = JSON.parse(DEEP);
        break;
      case 'any JSON value':
        parent[key] = m.value;
        break;
    }
  }
  let text = JSON.stringify({ success: true, data: root.data, meta });
  if (deep !== undefined) text = text.replace(DEEP, `${'['.repeat(deep)}${']'.repeat(deep)}`);
  return { text, kinds, deep: deep !== undefined, extraOnlyTopLevel };
}
