/**
 * Issue 25 in a fleet: one receiver process for many accounts (`seo-visibility listen --accounts`).
 * Each row is an attack on that receiver or on what it queues: an account's URL used to post for
 * another, a probe for which accounts exist, an event naming a project or data the account does not
 * copy. Served in-process on 127.0.0.1; the queue is the receivers' only way out, and is recorded.
 */
import { createServer, type Server } from 'node:http';
import { afterEach, describe, test } from 'vitest';
import { accountDedupe } from '../../src/cli/account-dedupe.js';
import { accountHookPath, accountWebhookSecret } from '../../src/cli/account-secrets.js';
import { type EventQueue, fleetReceivers } from '../../src/cli/fleet-receivers.js';
import { createFleet } from '../../src/fleet/index.js';
import type { WebhookEvent } from '../../src/index.js';
import { generateWebhookSecret, memoryDedupeStore } from '../../src/webhooks/index.js';
import { keywordsUpdatedEventFixture } from '../fixtures/events.js';
import { postJson } from '../webhooks/support/attack-kit.js';
import { useReport } from './support/report.js';

const report = useReport('hooksfleet');
const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

/** Serves the receivers of `accounts`; every enqueue is recorded as `account project`. */
async function serveFleet(accounts: string[], mainSecret: string) {
  const queued: string[] = [];
  const queue: EventQueue = {
    async enqueueEvent(account, event) {
      queued.push(`${account} ${event.project_id}`);
      return { queued: true, datasets: ['rankings.list'] };
    },
  };
  const fleet = await fleetReceivers({
    queue,
    accountIds: accounts,
    mainSecret,
    path: '/hooks/seo',
    dedupe: accountDedupe(memoryDedupeStore(), accounts),
    say: () => undefined,
    onError: () => undefined,
  });
  const server = createServer(fleet.node);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const idle = async () => {
    for (const receiver of fleet.receivers.values()) await receiver.idle();
  };
  return { queued, origin, idle };
}

describe('one receiver for many accounts', () => {
  test("an account's URL cannot post events for another account, and a probe learns nothing", async () => {
    const main = generateWebhookSecret();
    const { queued, origin, idle } = await serveFleet(['acme', 'globex'], main);
    const acmeSecret = await accountWebhookSecret(main, 'acme');
    const url = (account: string, secret: string) => `${origin}${accountHookPath('/hooks/seo', account)}/${secret}`;
    const event = { ...keywordsUpdatedEventFixture, timestamp: new Date(Date.UTC(2026, 5, 10)).toISOString() };
    const tries: Array<[string, string]> = [
      ["globex's path with acme's secret", url('globex', acmeSecret)],
      ["globex's path with the main secret", url('globex', main)],
      ["acme's path with the main secret", url('acme', main)],
      ["an account that does not exist, with acme's secret", url('initech', acmeSecret)],
      ["acme's secret without an account", `${origin}/hooks/seo/${acmeSecret}`],
    ];
    const answers: string[] = [];
    for (const [label, target] of tries) {
      const response = await postJson(target, event);
      answers.push(`${label}: ${response.status} ${JSON.stringify(await response.text())}`);
    }
    const own = await postJson(url('acme', acmeSecret), event);
    await idle();
    report.check({
      area: 'Webhooks in a fleet: one URL per account',
      input:
        "a keywords.updated posted with acme's URL secret (derived from the main one) to globex, with the main secret, to an unknown account, without an account",
      cases: tries.length + 1,
      expected: `${tries.map(([label]) => `${label}: 404 ""`).join('; ')}; acme's own URL: 202; queued: acme only, once`,
      observed: `${answers.join('; ')}; acme's own URL: ${own.status}; queued: ${queued.map((q) => q.split(' ')[0]).join(', ') || 'nothing'}${queued.length === 1 ? ' only, once' : ''}`,
      serverSaw: `${queued.length} enqueue(s)`,
    });
  });

  test('an event for a project or data the account does not copy queues nothing, and opens no connection', async () => {
    const listed = '11111111-1111-4111-8111-111111111111';
    const other = '22222222-2222-4222-8222-222222222222';
    // Nothing listens on port 1: an enqueue that reached the queue would fail on the connection.
    const fleet = createFleet({
      postgres: 'postgres://nobody@127.0.0.1:1/none',
      accounts: { acme: { apiKey: 'sv_live_abc', job: { projects: [listed], datasets: ['rankings.list'] } } },
    });
    const keywords = (projectId: string): WebhookEvent => ({
      event: 'keywords.updated',
      timestamp: '2026-06-10T00:00:00Z',
      project_id: projectId,
      data: { keywords_updated: 3, job_id: 'j1' },
    });
    const audit: WebhookEvent = {
      event: 'audit.completed',
      timestamp: '2026-06-10T00:00:00Z',
      project_id: listed,
      data: { audit_id: 'a1', target_url: 'https://example.com/', pages_crawled: 4 },
    };
    const outcomes: string[] = [];
    try {
      for (const [label, event] of [
        ['keywords.updated of a project acme does not copy', keywords(other)],
        ['audit.completed (acme copies rankings only)', audit],
      ] as const) {
        const result = await fleet.enqueueEvent('acme', event).then(
          (r) => `${r.queued ? 'queued' : 'nothing queued'} (${r.datasets.join(',') || 'no dataset'})`,
          (e: Error) => `failed: ${e.message}`,
        );
        outcomes.push(`${label}: ${result}`);
      }
    } finally {
      await fleet.close();
    }
    report.check({
      area: 'Webhooks in a fleet: what an event may read',
      input: "an event naming a project outside the account's job, and one asking for datasets it does not copy",
      cases: 2,
      expected:
        'keywords.updated of a project acme does not copy: nothing queued (no dataset); audit.completed (acme copies rankings only): nothing queued (no dataset)',
      observed: outcomes.join('; '),
      serverSaw: 'no connection to PostgreSQL (port 1)',
    });
  });
});
