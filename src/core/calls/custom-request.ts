import type * as zc from 'zod';
import * as z from 'zod/mini';
import type { ResponseSchema } from '../../wire/schemas.js';
import type { CallSpec } from '../transport/transport.js';
import { InvalidArgumentError } from '../../errors/client-errors.js';
import * as check from '../../internal/validate.js';
import * as c from '../../internal/option-check.js';
import type { RequestOptions } from '../../options/client-options.js';

/**
 * A call to a path the SDK does not wrap yet, for `client.request()`.
 *
 * @example
 * ```ts
 * const request: CustomRequest = { method: 'GET', path: `/projects/${projectId}/keywords/groups`, query: { limit: 10 } };
 * ```
 */
export interface CustomRequest<S extends AnySchema | undefined = AnySchema | undefined> {
  /** `GET`, `POST`, `PATCH` or `DELETE`. */
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /**
   * Path below the base URL, starting with `/`, sent as given: encode each value with
   * `encodeURIComponent`. No query string (use `query`), no `.` or `..` segments, no `//`.
   */
  path: string;
  /** Query parameters; `undefined` values are left out. */
  query?: Record<string, string | number | boolean | undefined>;
  /** A JSON body (not for `GET`). */
  body?: unknown;
  /** A zod schema (zod or zod/mini) of `data`; the response is validated with it. Without one, `data` is `unknown`. */
  schema?: S;
}

/**
 * Any zod 4 schema, classic or mini.
 *
 * @example
 * ```ts
 * import * as z from 'zod';
 * const schema: AnySchema = z.array(z.object({ id: z.string() }));
 * ```
 */
export type AnySchema = ResponseSchema<unknown>;

/**
 * What `client.request()` resolves to: the schema's output, or `unknown` without a schema.
 *
 * @example
 * ```ts
 * import * as z from 'zod';
 * const ids: CustomResult<z.ZodArray<z.ZodString>> = ['a', 'b'];
 * ```
 */
export type CustomResult<S> = S extends zc.core.$ZodType ? zc.output<S> : unknown;

const isScalar = (v: unknown) =>
  v === undefined || typeof v === 'string' || Number.isFinite(v) || typeof v === 'boolean';
const checkRequest = c.object(
  {
    method: c.oneOf(['GET', 'POST', 'PATCH', 'DELETE']),
    path: c.string("expected a path such as '/projects'"),
    query: c.optional(
      c.record(
        c.is<string | number | boolean | undefined>(
          isScalar,
          'expected a string, a finite number, a boolean or undefined',
        ),
        'expected an object of query parameters',
      ),
    ),
    body: c.optional(c.is<unknown>(() => true, '')),
    schema: c.optional(c.withMethods<ResponseSchema<unknown>>(['safeParse'], 'a zod schema')),
  },
  "expected an object such as { method: 'GET', path: '/projects' }",
);

/** The schema of a request without one, built once on first use rather than per call (and not at import). */
let anyData: ResponseSchema<unknown> | undefined;

// eslint-disable-next-line no-control-regex -- control characters are exactly what we reject
const UNSAFE = /[\s\u0000-\u001f\u007f\\?#]/;

/**
 * Checks a {@link CustomRequest} and turns it into the transport's call. The path is the route
 * template as well (the SDK cannot know which parts are ids).
 *
 * @internal
 */
export function customCall<S extends AnySchema | undefined>(
  request: CustomRequest<S>,
  options: RequestOptions | undefined,
): CallSpec<CustomResult<S>> {
  checkRequest(request, 'request');
  const { method, path, body, query, schema } = request;
  const segments = path.split('/').slice(1);
  const dotted = segments.some((s) => /^(?:\.|%2e){1,2}$/i.test(s));
  if (!path.startsWith('/') || path.includes('//') || UNSAFE.test(path) || dotted) {
    throw new InvalidArgumentError(
      'request.path',
      `expected a path below the base URL such as '/projects/<id>/keywords': starting with '/', without a scheme, query string, '.' or '..' segments, '//', spaces or backslashes (encode values with encodeURIComponent), got ${check.describe(path)}`,
    );
  }
  if (body !== undefined && method === 'GET') {
    throw new InvalidArgumentError('request.body', 'a GET request has no body; send its parameters in `query`');
  }
  return {
    method,
    template: path,
    path,
    query,
    body,
    // The transport writes it, once: a body JSON cannot write is refused there, unsent.
    bodyArgument: 'request.body',
    schema: (schema ?? (anyData ??= z.unknown())) as ResponseSchema<CustomResult<S>>,
    options,
  };
}
