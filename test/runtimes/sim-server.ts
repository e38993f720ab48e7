import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** A simulator served over HTTP for a smoke script, and the env that points the SDK at it. */
export interface SmokeServer {
  env: Record<string, string>;
  /** Names of every listed project, in list order (seeded, so known in advance). */
  projects: string[];
  /** The distinct `User-Agent` headers the simulator received so far. */
  userAgents(): string[];
  close(): Promise<void>;
}

/**
 * Serves the packed package's own simulator (`seo-visibility/testing` from the scratch install) on
 * 127.0.0.1, with every `GET /webhooks` answered 429 so the smoke can catch `RateLimitedError`.
 * @example `const server = await startSmokeServer(consumerDir); … await server.close();`
 */
export async function startSmokeServer(consumerDir: string): Promise<SmokeServer> {
  const entry = pathToFileURL(join(consumerDir, 'node_modules', 'seo-visibility', 'dist', 'testing', 'index.js')).href;
  const testing = (await import(entry)) as typeof import('../../src/testing/index.js');
  const sim = testing.createSimulator({ seed: 11 });
  sim.inject({ match: { method: 'GET', path: '/webhooks' }, times: Infinity, fault: { type: 'status', status: 429 } });
  const server = await sim.listen({ port: 0 });
  return {
    env: { SEO_VISIBILITY_API_KEY: sim.keys.readOnly, SEO_VISIBILITY_BASE_URL: server.url },
    projects: sim.data.listedProjects.map((p) => p.name),
    userAgents: () => [...new Set(sim.requests.map((r) => r.headers['user-agent'] ?? '(none)'))],
    close: () => server.close(),
  };
}
