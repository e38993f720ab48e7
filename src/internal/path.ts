/** A route: its template (for traces and logs) and the encoded path that is sent. @internal */
export interface Route {
  /** The path with `{name}` placeholders, e.g. `/projects/{projectId}/audits`. */
  template: string;
  /** The same path with each placeholder replaced by its percent-encoded value. */
  path: string;
}

/** A `{name}` placeholder of a route template; `route()` fills them, resource calls check their ids by name. @internal */
export const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/**
 * Fills a route template. Every value is percent-encoded as one path segment
 * (`encodeURIComponent`), so an id can never add a segment or climb out: `../webhooks` becomes
 * `..%2Fwebhooks`. A placeholder without a value throws, so a typo in a template fails the first
 * test that calls it instead of sending `{projectId}` to the server.
 *
 * @example
 * ```ts
 * route('/projects/{projectId}/reports/{reportId}', { projectId, reportId: 'q3/review' });
 * // { template: '/projects/{projectId}/reports/{reportId}', path: '/projects/3f2b…/reports/q3%2Freview' }
 * ```
 * @internal
 */
export function route(template: string, params: Readonly<Record<string, string>> = {}): Route {
  const path = template.replace(PLACEHOLDER, (_, name: string) => {
    const value = Object.hasOwn(params, name) ? params[name] : undefined;
    if (typeof value !== 'string') throw new TypeError(`route ${template}: no value for {${name}}`);
    return encodeURIComponent(value);
  });
  return { template, path };
}
