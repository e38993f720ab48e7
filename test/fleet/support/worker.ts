/**
 * A fleet worker in its own OS process, for the fleet tests: the configuration comes as JSON in
 * argv[2]; it prints `event <json>` for every run that starts or ends, and `done <json>` when
 * `work()` returns (on SIGTERM, or once idle).
 */
import { createFleet, type FleetAccount } from '../../../src/fleet/index.js';
import type { WorkerArgs } from './fleet-env.js';

const args = JSON.parse(process.argv[2] ?? '{}') as WorkerArgs;
const accounts: Record<string, FleetAccount> = {};
for (const [id, a] of Object.entries(args.accounts)) {
  accounts[id] = {
    apiKey: a.apiKey,
    job: { projects: 'all', ...(a.datasets ? { datasets: a.datasets as never } : {}) },
    client: { baseUrl: a.baseUrl, rateLimit: { windows: a.windows }, retryBackoff: { initialDelay: 1, maxDelay: 20 } },
  };
}
const fleet = createFleet({
  postgres: args.postgres,
  accounts,
  queue: args.queue,
  schema: args.schema,
});
const stop = new AbortController();
process.once('SIGTERM', () => stop.abort());
const result = await fleet.work({
  concurrency: args.concurrency,
  exitWhenIdle: args.exitWhenIdle,
  signal: stop.signal,
  onEvent: (e) => process.stdout.write(`event ${JSON.stringify(e)}\n`),
});
process.stdout.write(`done ${JSON.stringify(result)}\n`);
await fleet.close();
