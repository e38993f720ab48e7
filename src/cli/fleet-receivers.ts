// The receivers of a fleet `listen`: one per account, at `{path}/{account}/{its secret}`, each
// handing the events that read something to the fleet's queue. Apart from the server and the fleet
// so the routing (an account's URL reaches only that account) can be tried on its own.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { KnownWebhookEventName, WebhookEvent } from '../index.js';
import { EVENT_DATASETS } from '../sync/index.js';
import { createWebhookReceiver, type WebhookReceiver } from '../webhooks/index.js';
import type { AccountDedupe } from './account-dedupe.js';
import { accountHookPath, accountWebhookSecret } from './account-secrets.js';

/** What the receivers need of the fleet: `Fleet.enqueueEvent`. @internal */
export interface EventQueue {
  enqueueEvent(account: string, event: WebhookEvent): Promise<{ queued: boolean; datasets: readonly string[] }>;
}

/** The events that read something (EVENT_DATASETS, declared once there); the others are acknowledged and dropped. */
const READING_EVENTS = (Object.keys(EVENT_DATASETS) as KnownWebhookEventName[]).filter(
  (name) => EVENT_DATASETS[name].length > 0,
);

/** The fleet's receivers and the Node handler that routes to them. @internal */
export interface FleetReceivers {
  receivers: ReadonlyMap<string, WebhookReceiver>;
  /** Serves one request: the account is the segment after the path; that account's receiver answers. */
  node(request: IncomingMessage, response: ServerResponse): void;
}

/**
 * Builds one receiver per account. A request for no known account goes to any receiver, which
 * answers it 404 exactly as a wrong secret (the URL is the secret: a prober learns nothing, not
 * even which accounts exist).
 * @example `const { node } = await fleetReceivers({ queue: fleet, accountIds: ['acme'], mainSecret, path: '/hooks/seo', dedupe, say: console.log, onError })`
 * @internal
 */
export async function fleetReceivers(options: {
  queue: EventQueue;
  accountIds: readonly string[];
  mainSecret: string;
  path: string;
  dedupe: AccountDedupe;
  say: (line: string) => void;
  onError: (account: string, error: unknown, event: WebhookEvent) => void;
}): Promise<FleetReceivers> {
  const { queue, accountIds, path, say } = options;
  if (accountIds.length === 0) throw new Error('fleetReceivers: no account');
  const receivers = new Map<string, WebhookReceiver>();
  for (const id of accountIds) {
    const receiver = createWebhookReceiver({
      secret: await accountWebhookSecret(options.mainSecret, id),
      path: accountHookPath(path, id),
      dedupe: options.dedupe.of(id),
      onError: (error, event) => options.onError(id, error, event),
    });
    for (const name of READING_EVENTS) {
      receiver.on(name, async (event) => {
        const { queued, datasets } = await queue.enqueueEvent(id, event);
        const what = datasets.length === 0 ? 'not copied' : queued ? 'queued' : 'already queued';
        say(`${what.padEnd(14)} ${id}  ${event.project_id}  ${datasets.join(',') || event.event}`);
      });
    }
    receiver.on('webhook.test', () => say(`test delivery   ${id}`));
    receivers.set(id, receiver);
  }
  return {
    receivers,
    node(request, response) {
      const pathname = (request.url ?? '/').split('?')[0] ?? '/';
      const id = accountIds.find((a) => pathname.startsWith(`${accountHookPath(path, a)}/`));
      (receivers.get(id ?? accountIds[0]!) as WebhookReceiver).node(request, response);
    },
  };
}
