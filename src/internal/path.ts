/**
 * Tag for API paths: every interpolated value is percent-encoded as one path segment, so an id
 * can never add a segment or climb out (`../webhooks` becomes `..%2Fwebhooks`). Rule: api-notes
 * "Path parameters are percent-encoded".
 *
 * @example
 * ```ts
 * path`/projects/${projectId}/reports/${slug}` // slug 'q3/review' → '/projects/3f2b…/reports/q3%2Freview'
 * ```
 * @internal
 */
export function path(strings: TemplateStringsArray, ...values: string[]): string {
  let out = strings[0] ?? '';
  for (let i = 0; i < values.length; i++) {
    out += encodeURIComponent(values[i] ?? '') + (strings[i + 1] ?? '');
  }
  return out;
}
