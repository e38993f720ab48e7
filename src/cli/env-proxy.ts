import { UsageError } from './connect.js';

/**
 * The proxy the environment names for the command line: `HTTPS_PROXY` for https:// hosts,
 * `HTTP_PROXY` for http:// ones (lower-case names win, as curl reads them), and `NO_PROXY`'s hosts
 * (`*`, `host`, `.domain`, `host:port`) reached directly.
 *
 * Node's own fetch reads these variables only when it was started with `NODE_USE_ENV_PROXY=1` or
 * `--use-env-proxy` (Node 22.21+ and 24+), which a user of the command line cannot be expected to
 * know; a corporate network then refused every call. So the command line installs undici's
 * `EnvHttpProxyAgent` as fetch's global dispatcher itself, the same on every Node version.
 * Nothing happens when no proxy variable is set: the library never does this on its own.
 *
 * A proxy URL may hold a password: an unreadable one is refused naming only the variable.
 *
 * @example
 * ```ts
 * await useEnvProxy(process.env); // before the first request
 * ```
 * @internal
 */
export async function useEnvProxy(env: NodeJS.ProcessEnv): Promise<void> {
  const httpProxy = pick(env, 'http_proxy', 'HTTP_PROXY');
  const httpsProxy = pick(env, 'https_proxy', 'HTTPS_PROXY');
  if (!httpProxy && !httpsProxy) return;
  const { EnvHttpProxyAgent, setGlobalDispatcher } = await import('undici');
  // Passed explicitly (not left to undici's own reading of process.env): `env` is what is checked.
  setGlobalDispatcher(
    new EnvHttpProxyAgent({
      httpProxy: httpProxy?.value ?? '',
      httpsProxy: httpsProxy?.value ?? httpProxy?.value ?? '',
      noProxy: env['no_proxy'] || env['NO_PROXY'] || '',
    }),
  );
}

/** The first of `names` that is set, checked to be an http(s) URL. */
function pick(env: NodeJS.ProcessEnv, ...names: string[]): { name: string; value: string } | undefined {
  const name = names.find((n) => env[n]);
  if (name === undefined) return undefined;
  const value = env[name]!;
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    // refused below
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new UsageError(
      `${name}: expected a proxy URL such as http://proxy.example.com:3128 (the value is not shown: it may hold a password)`,
    );
  }
  return { name, value };
}
