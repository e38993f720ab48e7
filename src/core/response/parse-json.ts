/**
 * `JSON.parse` of a server's (or a webhook sender's) text, without any own `"__proto__"` key at
 * any depth. JSON allows the key and `JSON.parse` keeps it as an inert own property, but a caller's
 * `Object.assign({}, record)` (or any copy by assignment) then takes its value as the copy's
 * prototype. zod drops the key where it copies an object; this covers what zod hands back as it is
 * (`z.unknown()` values, a custom request without a schema) and `meta`, which zod does not read.
 *
 * Only a text that can spell the key, directly or through a `\u` escape, pays for the reviver.
 *
 * @example
 * ```ts
 * Object.hasOwn(parseJson('{"__proto__": {"isAdmin": true}}') as object, '__proto__'); // false
 * ```
 * @internal
 */
export function parseJson(text: string): unknown {
  return text.includes('__proto__') || text.includes('\\u') ? JSON.parse(text, withoutProtoKey) : JSON.parse(text);
}

/** A reviver's `undefined` deletes the property from its parent. */
function withoutProtoKey(key: string, value: unknown): unknown {
  return key === '__proto__' ? undefined : value;
}

/**
 * `value`, JSON data an application parsed itself (a framework's body parser keeps an own
 * `"__proto__"` key as `JSON.parse` does), without any own `"__proto__"` key at any depth: the value
 * itself when it has none, the usual case, else a copy made through its JSON text and
 * {@link parseJson}. The caller's object is never changed. Throws what `JSON.stringify` throws
 * (a cycle, a BigInt) only for a value that has the key.
 *
 * @example
 * ```ts
 * const body = withoutProtoKeys(JSON.parse('{"data": {"__proto__": {"isAdmin": true}}}'));
 * ```
 * @internal
 */
export function withoutProtoKeys(value: unknown): unknown {
  return hasProtoKey(value) ? parseJson(JSON.stringify(value)) : value;
}

/** Whether an object inside `value` has an own `__proto__` key. A loop over a stack, not recursion, so no depth overflows it. */
function hasProtoKey(value: unknown): boolean {
  const stack = [value];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const next = stack.pop();
    if (typeof next !== 'object' || next === null || seen.has(next)) continue;
    seen.add(next);
    if (Object.hasOwn(next, '__proto__')) return true;
    stack.push(...Object.values(next));
  }
  return false;
}
