/** Where a key is written in a JSON text: 1-based line and column. @internal */
export interface JsonPlace {
  line: number;
  column: number;
}

/** A key written twice in one object: the path of that object, the key, and both places. @internal */
export interface DuplicateKey {
  /** The keys leading to the object that holds the duplicate (`['accounts']` for an account id). */
  path: string[];
  key: string;
  first: JsonPlace;
  second: JsonPlace;
}

interface Frame {
  kind: 'object' | 'array';
  path: string[];
  keys: Map<string, number>;
  expectKey: boolean;
  lastKey: string;
}

/**
 * Every key written twice in one object of `text`, which must be valid JSON (parse it first).
 * `JSON.parse` keeps the last of two equal keys without a word; a file a person edits by hand must
 * say so instead, since the first entry silently vanishes.
 *
 * @example
 * ```ts
 * findDuplicateKeys('{"a":1,"a":2}'); // [{ path: [], key: 'a', first: { line: 1, column: 2 }, second: { line: 1, column: 8 } }]
 * ```
 * @internal
 */
export function findDuplicateKeys(text: string): DuplicateKey[] {
  const found: DuplicateKey[] = [];
  const stack: Frame[] = [];
  const childPath = (): string[] => {
    const parent = stack[stack.length - 1];
    if (!parent) return [];
    return parent.kind === 'object' ? [...parent.path, parent.lastKey] : [...parent.path, '[]'];
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      const end = stringEnd(text, i);
      const top = stack[stack.length - 1];
      if (top?.kind === 'object' && top.expectKey) {
        const key = JSON.parse(text.slice(i, end + 1)) as string;
        const earlier = top.keys.get(key);
        if (earlier === undefined) top.keys.set(key, i);
        else found.push({ path: top.path, key, first: placeOf(text, earlier), second: placeOf(text, i) });
        top.lastKey = key;
        top.expectKey = false;
      }
      i = end;
    } else if (c === '{' || c === '[') {
      stack.push({
        kind: c === '{' ? 'object' : 'array',
        path: childPath(),
        keys: new Map(),
        expectKey: c === '{',
        lastKey: '',
      });
    } else if (c === '}' || c === ']') {
      stack.pop();
    } else if (c === ',') {
      const top = stack[stack.length - 1];
      if (top?.kind === 'object') top.expectKey = true;
    }
  }
  return found;
}

/** The index of the quote that closes the string opened at `start`. */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i;
  }
  return text.length - 1;
}

function placeOf(text: string, index: number): JsonPlace {
  const before = text.slice(0, index);
  const lineStart = before.lastIndexOf('\n') + 1;
  return { line: before.split('\n').length, column: index - lineStart + 1 };
}
