/**
 * The base class of every error this SDK throws, so one `instanceof` check catches them all.
 *
 * Subclasses set a literal `name`; the `is…Error()` guards fall back to it because `instanceof`
 * fails across realms (two copies of the package, an iframe, a worker).
 *
 * @example
 * ```ts
 * try {
 *   await client.projects.list();
 * } catch (error) {
 *   if (error instanceof SeoVisibilityError) console.error(error.name, error.message);
 * }
 * ```
 */
export class SeoVisibilityError extends Error {
  override name: string = 'SeoVisibilityError';
}
