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
