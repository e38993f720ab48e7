/**
 * The one place that keeps a client's API key out of everything the SDK hands out. A server, a
 * gateway or a custom `fetch` may echo the key back (in a header, `meta.request_id`, an error
 * message, a record, an exception); the transport passes every response and every failure through
 * the client's redactor before any error, hook payload, log line, span, result or page is built
 * from it, so they all read `***` where the key was.
 *
 * Built once per client from its key. The common case costs one `includes` per text: a response
 * whose headers and body do not hold the key (not even JSON-escaped) is passed on as it is.
 *
 * @example
 * ```ts
 * const redact = createRedactor(apiKey);
 * redact.text(`Bearer ${apiKey}`); // 'Bearer ***'
 * ```
 * @internal
 */
export interface Redactor {
  /** `text` with every occurrence of the key replaced by `***`. */
  text(text: string): string;
  /** Whether a JSON text may hold the key once parsed: in clear, or written with JSON escapes. */
  mayHold(jsonText: string): boolean;
  /** A parsed JSON value with the key replaced in every string, object keys included (a copy where it changed). */
  json<T>(value: T): T;
  /** The response itself when neither its headers, status text nor URL hold the key, else a bodiless copy without it. */
  response(response: Response): Response;
  /** The error with the key replaced in its message, stack and string fields, down its `cause` chain. */
  error<E>(error: E): E;
}

/** What the key becomes. */
const MASK = '***';
/** How deep `error()` follows `cause` (a cycle must not loop forever). */
const MAX_CAUSES = 8;

/**
 * The redactor of one key. An empty key redacts nothing (it cannot be sent either).
 *
 * @example
 * ```ts
 * const redact = createRedactor('sv_live_abc');
 * redact.json({ request_id: 'sv_live_abc' }); // { request_id: '***' }
 * ```
 * @internal
 */
export function createRedactor(key: string): Redactor {
  const holds = (text: string) => key !== '' && text.includes(key);
  const text = (value: string) => (holds(value) ? value.replaceAll(key, MASK) : value);
  const json = <T>(value: T): T => deepText(value, text) as T;
  // A JSON string may spell any character as \uXXXX, and " \ / as \" \\ \/. The key is printable
  // ASCII, so only those escapes can hide it: a body with none of them (non-ASCII escapes such as
  // \u00e9 are common, ASCII ones are not) is settled by one `includes` and one test; one with them
  // is walked once parsed, which finds the key however it was spelled.
  const hiding = /[\\"/]/.test(key) ? /\\(?:u00[2-7]|["\\/])/ : /\\u00[2-7]/;
  // Header names are case-insensitive and `Headers` hands them out lower-cased: a name that echoed
  // a mixed-case key holds it lower-cased, which is the key all the same.
  const lowerKey = key.toLowerCase();
  const holdsName = (name: string) => key !== '' && name.includes(lowerKey);
  const nameText = (name: string) => (holdsName(name) ? name.replaceAll(lowerKey, MASK) : name);
  return {
    text,
    mayHold: (jsonText) => holds(jsonText) || hiding.test(jsonText),
    json,
    response(response) {
      let dirty = holds(response.statusText) || holds(response.url);
      for (const [name, value] of response.headers) dirty ||= holdsName(name) || holds(value);
      if (!dirty) return response;
      // A bodiless copy (the body is read already); a header name that held the key becomes `***`, still a valid name.
      const headers = new Headers();
      for (const [name, value] of response.headers) headers.append(nameText(name), text(value));
      const copy = new Response(null, { status: response.status, statusText: text(response.statusText), headers });
      // The URL a redirect led to, which the constructor cannot set.
      Object.defineProperty(copy, 'url', { value: text(response.url) });
      return copy;
    },
    error(error) {
      let current: unknown = error;
      for (let depth = 0; depth < MAX_CAUSES && typeof current === 'object' && current !== null; depth++) {
        // In place: errors are thrown objects, and a copy would lose its class and stack. Readonly
        // fields (ApiError's) are still configurable own properties; `cause` is the next round.
        for (const name of Object.getOwnPropertyNames(current)) {
          try {
            const value = (current as Record<string, unknown>)[name];
            const clean = name === 'cause' || value instanceof Error ? value : deepText(value, text);
            if (clean !== value) Object.defineProperty(current, name, { value: clean });
          } catch {
            // A getter that throws, or a frozen error: left as it is rather than failing the call with a TypeError.
          }
        }
        current = (current as { cause?: unknown }).cause;
      }
      return error;
    },
  };
}

/** `value` with `text` applied to every string in it, keys included: the value itself when nothing changed. */
function deepText(value: unknown, text: (s: string) => string): unknown {
  if (typeof value === 'string') return text(value);
  if (typeof value !== 'object' || value === null) return value;
  const out: object = Array.isArray(value) ? [] : {};
  let changed = false;
  for (const [name, item] of Object.entries(value)) {
    const clean = deepText(item, text);
    changed ||= clean !== item || text(name) !== name;
    // defineProperty, not assignment: a `__proto__` key stays an own key rather than a prototype.
    Object.defineProperty(out, text(name), { value: clean, enumerable: true, writable: true, configurable: true });
  }
  return changed ? out : value;
}
