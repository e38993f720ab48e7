import { type ListenOptions, type SimulatorServer, startHttpServer } from './http-server.js';
import type { Outcome } from './outcome.js';
import type { Simulator } from './simulator.js';

/**
 * Serves several simulators as separate accounts of one API, on one loopback HTTP server: each
 * request goes to the simulator whose key it carries, so every account keeps its own data, its own
 * keys and its own enforced rate windows (give each simulator its own `rateLimit`). A key no
 * simulator knows is answered `401 UNAUTHORIZED`, as the API does. The simulators must share one
 * base path (the default `/api/v1` does).
 *
 * @example
 * ```ts
 * import { createSimulator, listenAccounts } from 'seo-visibility/testing';
 * const windows = [{ limit: 20, intervalMs: 1_000 }];
 * const acme = createSimulator({ seed: 1, rateLimit: { windows } });
 * const globex = createSimulator({ seed: 2, rateLimit: { windows } });
 * const server = await listenAccounts([acme, globex]);
 * const res = await fetch(`${server.url}/projects`, { headers: { authorization: `Bearer ${globex.keys.readOnly}` } });
 * console.log(res.status); // 200: globex's projects, counted against globex's windows only
 * await server.close();
 * ```
 */
export function listenAccounts(
  simulators: readonly Simulator[],
  options: ListenOptions = {},
): Promise<SimulatorServer> {
  if (!Array.isArray(simulators) || simulators.length === 0)
    throw new RangeError('listenAccounts: expected a non-empty array of simulators');
  const basePath = new URL(simulators[0]!.baseUrl).pathname.replace(/\/+$/, '');
  if (simulators.some((sim) => new URL(sim.baseUrl).pathname.replace(/\/+$/, '') !== basePath))
    throw new RangeError('listenAccounts: every simulator must have the same base path');
  const owner = new Map<string, Simulator>();
  for (const sim of simulators) for (const key of [sim.keys.readWrite, sim.keys.readOnly]) owner.set(key, sim);
  const dispatcher = {
    // An unknown key goes to the first simulator, which refuses it like any key it does not hold.
    dispatch: (request: Request, path: string): Promise<Outcome> =>
      (owner.get(bearer(request)) ?? simulators[0]!).dispatch(request, path),
  };
  return startHttpServer(dispatcher, basePath, options);
}

function bearer(request: Request): string {
  return /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get('authorization') ?? '')?.[1] ?? '';
}
