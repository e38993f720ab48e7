import { VERSION } from '../wire/version.js';

/**
 * What the client needs to know about the JavaScript runtime it runs in: environment variables,
 * whether it is a browser page, and how to name itself in `User-Agent`.
 *
 * @internal
 */

interface RuntimeGlobals {
  process?: { env?: Record<string, string | undefined>; versions?: Record<string, string | undefined> };
  Deno?: { version?: { deno?: string } };
  Bun?: { version?: string };
  window?: unknown;
  document?: unknown;
  WorkerGlobalScope?: unknown;
  navigator?: { userAgent?: string };
}

const globals = (): RuntimeGlobals => globalThis as RuntimeGlobals;

/** `process.env` where it exists; browsers have none, and bundlers may define a partial `process`. */
export function readEnv(): Record<string, string | undefined> {
  return globals().process?.env ?? {};
}

/**
 * Whether the code runs in a browser page or a browser worker, where anything in the bundle,
 * an API key included, is visible to every visitor. Node (also under jsdom or happy-dom, which
 * define `window` and `document`), Deno, Bun and edge workers are servers.
 */
export function isBrowser(): boolean {
  const g = globals();
  if (g.process?.versions?.node !== undefined || g.Deno !== undefined || g.Bun !== undefined) return false;
  const page =
    typeof g.window === 'object' && g.window !== null && typeof g.document === 'object' && g.document !== null;
  // A dedicated or shared worker of a page; Cloudflare's workerd defines no WorkerGlobalScope.
  const worker = typeof g.WorkerGlobalScope === 'function' && g.navigator?.userAgent !== 'Cloudflare-Workers';
  return page || worker;
}

/**
 * `seo-visibility/<version> <runtime>/<version>` where the runtime lets a request set
 * `User-Agent` (Node, Deno, Bun, Cloudflare workerd); `undefined` elsewhere (browsers forbid it).
 */
export function userAgent(): string | undefined {
  const g = globals();
  const runtime =
    g.Bun?.version !== undefined
      ? `bun/${g.Bun.version}`
      : g.Deno?.version?.deno !== undefined
        ? `deno/${g.Deno.version.deno}`
        : g.process?.versions?.node !== undefined
          ? `node/${g.process.versions.node}`
          : g.navigator?.userAgent === 'Cloudflare-Workers'
            ? 'workerd'
            : undefined;
  return runtime === undefined ? undefined : `seo-visibility/${VERSION} ${runtime}`;
}
