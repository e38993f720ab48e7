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

/**
 * Builds a cross-realm type guard for an error class: `instanceof` first, then the literal `name`.
 *
 * @internal
 */
export function errorGuard<T extends Error>(cls: abstract new (...args: never[]) => T, name: string) {
  return (error: unknown): error is T =>
    error instanceof cls || (typeof error === 'object' && error !== null && (error as { name?: unknown }).name === name);
}
