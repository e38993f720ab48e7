import type { FleetAccount } from '../fleet/index.js';
import { SIMULATOR_SPEEDUP } from './connect.js';

/** Keywords per project of each simulated account: a whole fleet syncs in seconds. */
const KEYWORDS = 20;

/** The accounts served by the built-in simulator, where they are served, and how to stop it. @internal */
export interface SimulatedAccounts {
  accounts: Record<string, FleetAccount>;
  /** For the first line of output. */
  source: string;
  close(): Promise<void>;
}

/**
 * `fleet work|plan --simulator`: every account of the accounts file served by its own built-in
 * simulator (its own data, key and rate windows, 60× faster), all on one loopback server, so a
 * fleet can be tried with no key. What each account copies (projects, datasets, budget) stays as
 * the file says; its key and address are the simulator's. A seed per account id keeps each
 * account's data the same from one run to the next.
 * @example `const sim = await simulatedAccounts(accounts); try { … } finally { await sim.close(); }`
 * @internal
 */
export async function simulatedAccounts(accounts: Readonly<Record<string, FleetAccount>>): Promise<SimulatedAccounts> {
  const { createSimulator, listenAccounts } = await import('../testing/index.js');
  const ids = Object.keys(accounts);
  const sims = ids.map((id) =>
    createSimulator({ seed: seedOf(id), keywordsPerProject: KEYWORDS, speedup: SIMULATOR_SPEEDUP }),
  );
  const server = await listenAccounts(sims, { host: '127.0.0.1', port: 0 });
  const served: Record<string, FleetAccount> = {};
  ids.forEach((id, i) => {
    const sim = sims[i]!;
    served[id] = {
      ...accounts[id]!,
      apiKey: sim.keys.readOnly,
      client: { ...accounts[id]!.client, baseUrl: server.url, rateLimit: { windows: sim.rateWindows } },
    };
  });
  return {
    accounts: served,
    source: `the built-in simulator at ${server.url} (${ids.length} account(s), rate windows ${SIMULATOR_SPEEDUP}× faster)`,
    close: () => server.close(),
  };
}

/** A stable seed from an account id (FNV-1a). */
function seedOf(id: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) hash = Math.imul(hash ^ id.charCodeAt(i), 0x01000193) >>> 0;
  return hash % 1_000_000;
}
