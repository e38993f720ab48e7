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
  const json = <T>(value: T): T => deepText(value, text, holds) as T;
  // A JSON string may spell any character as \uXXXX, and " \ / as \" \\ \/. The key is printable
  // ASCII, so only those escapes can hide it: a body with none of them (non-ASCII escapes such as
  // \u00e9 are common, ASCII ones are not) is settled by one `includes`.
  const hiding = /[\\"/]/.test(key) ? /\\(?:u00[2-7][0-9a-fA-F]|["\\/])/ : /\\u00[2-7][0-9a-fA-F]/;
  return {
    text,
    mayHold: (jsonText) => holds(jsonText) || (hiding.test(jsonText) && holds(unescapeJson(jsonText))),
    json,
    response(response) {
      let dirty = holds(response.statusText) || holds(response.url);
      for (const [name, value] of response.headers) dirty ||= holds(name) || holds(value);
      if (!dirty) return response;
      return bodilessCopy(response, text);
    },
    error(error) {
      let current: unknown = error;
      for (let depth = 0; depth < MAX_CAUSES && typeof current === 'object' && current !== null; depth++) {
        scrubOwnStrings(current as Record<string, unknown>, text, holds);
        current = (current as { cause?: unknown }).cause;
      }
      return error;
    },
  };
}

/** Every JSON escape of a string decoded, the structure left as it is (only a search runs on it). */
function unescapeJson(jsonText: string): string {
  return jsonText.replace(/\\(?:u([0-9a-fA-F]{4})|(["\\/bfnrt]))/g, (_, hex: string | undefined, simple: string | undefined) =>
    hex !== undefined ? String.fromCharCode(Number.parseInt(hex, 16)) : (SIMPLE_ESCAPES[simple!] ?? simple!),
  );
}
const SIMPLE_ESCAPES: Record<string, string> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/** `value` with `text` applied to every string in it, keys included; unchanged parts are shared. */
function deepText(value: unknown, text: (s: string) => string, holds: (s: string) => boolean): unknown {
  if (typeof value === 'string') return text(value);
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    value.forEach((item, i) => {
      const clean = deepText(item, text, holds);
      if (clean !== item) (out ??= value.slice())[i] = clean;
    });
    return out ?? value;
  }
  if (typeof value !== 'object' || value === null) return value;
  const entries = Object.entries(value);
  if (!entries.some(([name, item]) => holds(name) || deepText(item, text, holds) !== item)) return value;
  // defineProperty, not assignment: a `__proto__` key stays an own key rather than a prototype.
  const out = {};
  for (const [name, item] of entries) Object.defineProperty(out, text(name), { value: deepText(item, text, holds), enumerable: true, writable: true, configurable: true });
  return out;
}

/**
 * The error's own string fields (message, stack, code, …) and plain-object fields (e.g. `headers`)
 * without the key, in place: errors are thrown objects, and copying one would lose its class and stack.
 */
function scrubOwnStrings(target: Record<string, unknown>, text: (s: string) => string, holds: (s: string) => boolean): void {
  for (const name of Object.getOwnPropertyNames(target)) {
    if (name === 'cause') continue;
    const descriptor = Object.getOwnPropertyDescriptor(target, name);
    if (!descriptor || !('value' in descriptor)) continue;
    const value = descriptor.value as unknown;
    const clean = typeof value === 'string' || (typeof value === 'object' && value !== null && !(value instanceof Error)) ? deepText(value, text, holds) : value;
    if (clean === value) continue;
    // Readonly fields (ApiError's are) are still configurable own properties.
    if (descriptor.writable || descriptor.configurable) Object.defineProperty(target, name, { ...descriptor, value: clean });
  }
}

/** A copy of a response (its body already read) with `text` applied to its headers and status text. */
function bodilessCopy(response: Response, text: (s: string) => string): Response {
  const headers = new Headers();
  for (const [name, value] of response.headers) {
    const cleanName = text(name);
    // A name that held the key becomes `***`, still a valid header name.
    headers.append(cleanName, text(value));
  }
  const copy = new Response(null, { status: response.status, statusText: text(response.statusText), headers });
  // What a Response reports of its origin, kept (the URL a redirect led to, redacted too): the constructor cannot set these.
  Object.defineProperties(copy, {
    url: { value: text(response.url), enumerable: true },
    redirected: { value: response.redirected, enumerable: true },
    type: { value: response.type, enumerable: true },
  });
  return copy;
}
