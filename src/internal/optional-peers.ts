// How an entry point loads its optional peer dependencies (bottleneck and ioredis, pg-boss and pg):
// on first use, not at the top, because a plain `npm install seo-visibility` does not bring them.
// Deliberately imports nothing: each entry is bundled on its own, and this file must not pull the
// main entry (or another entry) into it.

/**
 * `load`, run once on the first call and shared by every later one. A failure is not kept: a
 * package installed later in a long-lived process is found on the next call.
 * @internal
 */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    if (!loading) {
      loading = load();
      loading.catch(() => (loading = undefined));
    }
    return loading;
  };
}

/**
 * Imports the optional peer `name` through `importer` (a literal `import('…')`, so bundlers leave it
 * as it is); a failure becomes the error `missing(name, cause)`, which says what to install rather
 * than the runtime's "Cannot find package".
 * @internal
 */
export async function importPeer<T>(
  name: string,
  importer: () => Promise<T>,
  missing: (name: string, cause: unknown) => Error,
): Promise<T> {
  try {
    return await importer();
  } catch (error) {
    throw missing(name, error);
  }
}

/**
 * Imports the package `name` at run time only. The specifier is not a literal, so a bundler
 * (esbuild in wrangler, Vite, webpack) leaves the import alone instead of failing to resolve a peer
 * that is not installed: right for an entry that must bundle for Workers, where the peer is absent
 * and the code that needs it is never called (seo-visibility/webhooks and its PostgreSQL store).
 * @example `importPeer('pg', () => importAtRunTime<typeof import('pg')>('pg'), missing)`
 * @internal
 */
export function importAtRunTime<T>(name: string): Promise<T> {
  return import(/* webpackIgnore: true */ /* @vite-ignore */ name) as Promise<T>;
}
