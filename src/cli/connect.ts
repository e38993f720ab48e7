import { Console } from 'node:console';
import { SeoVisibilityClient, isInvalidArgumentError } from '../index.js';
import type { SyncWindow } from '../sync/index.js';
import { DOCUMENTED_WINDOWS } from '../sync/index.js';
import { ENV } from '../internal/env-names.js';

/** How fast the demo simulator's clock runs its rate windows: a documented minute lasts a second. */
export const SIMULATOR_SPEEDUP = 60;

/** A client, the windows it is paced on, and how to let go of it. @internal */
export interface Connection {
  client: SeoVisibilityClient;
  windows: SyncWindow[];
  /** Where the data comes from, for the first line of output. */
  source: string;
  close(): Promise<void>;
}

/**
 * With `SEO_VISIBILITY_LOG` set, the client's log lines go to stderr: stdout carries what the
 * command prints (`plan --json` must stay valid JSON). Without it, no logger is given, since a
 * logger without a level would receive every line. The client reads the level from the variable and
 * refuses an unknown one, naming it.
 */
function logTo(env: NodeJS.ProcessEnv): { logger?: Console } {
  return env[ENV.log] ? { logger: new Console({ stdout: process.stderr, stderr: process.stderr }) } : {};
}

/** The environment variable each client option comes from. */
const ENV_OF: Record<string, string> = { apiKey: ENV.apiKey, baseUrl: ENV.baseUrl };

/** Thrown for a problem the user fixes on the command line (exit code 2). @internal */
export class UsageError extends Error {
  override name = 'UsageError';
}

/**
 * Connects to the API (`SEO_VISIBILITY_API_KEY`, `SEO_VISIBILITY_BASE_URL`), or with `--simulator`
 * starts the built-in simulator on loopback: a seeded demo account whose documented windows run 60×
 * faster, so a whole sync takes seconds and still shows the pacing.
 * @internal
 */
export async function connect(
  options: { simulator?: boolean | undefined; keywords?: number | undefined },
  env: NodeJS.ProcessEnv = process.env,
): Promise<Connection> {
  if (options.simulator) {
    const { createSimulator } = await import('../testing/index.js');
    const sim = createSimulator({ seed: 1, keywordsPerProject: options.keywords ?? 500, speedup: SIMULATOR_SPEEDUP });
    const windows = sim.rateWindows;
    const server = await sim.listen({ host: '127.0.0.1', port: 0 });
    let client: SeoVisibilityClient;
    try {
      client = new SeoVisibilityClient({
        apiKey: sim.keys.readOnly,
        baseUrl: server.url,
        rateLimit: { windows },
        ...logTo(env),
      });
    } catch (error) {
      await server.close(); // else its open socket keeps the process alive after the error
      throw error;
    }
    return {
      client,
      windows,
      source: `the built-in simulator at ${server.url} (rate windows ${SIMULATOR_SPEEDUP}× faster)`,
      close: () => server.close(),
    };
  }
  const apiKey = env[ENV.apiKey];
  const baseUrl = env[ENV.baseUrl];
  if (!apiKey)
    throw new UsageError(
      `No API key: set ${ENV.apiKey} (and ${ENV.baseUrl}), or pass --simulator to try it on the built-in simulator.`,
    );
  if (!baseUrl)
    throw new UsageError(`No API address: set ${ENV.baseUrl} to the base URL ending in /api/v1, or pass --simulator.`);
  let client: SeoVisibilityClient;
  try {
    client = new SeoVisibilityClient({
      apiKey,
      baseUrl,
      ...logTo(env),
    });
  } catch (error) {
    // The user typed a variable, not a client option: name the variable.
    const variable = isInvalidArgumentError(error) ? ENV_OF[error.argument] : undefined;
    if (variable) throw new UsageError(`${variable}: ${(error as Error).message.replace(/^Invalid \w+: /, '')}`);
    throw error;
  }
  return { client, windows: [...DOCUMENTED_WINDOWS], source: baseUrl, close: async () => {} };
}
