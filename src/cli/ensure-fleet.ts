// `seo-visibility webhooks ensure --accounts FILE`: the subscriptions of every account of a fleet,
// each made on the account's own key, to the URL `listen --accounts` answers for that account.
import { type KnownWebhookEventName, SeoVisibilityClient } from '../index.js';
import { type EnsureWebhookStep, ensureWebhooks } from '../webhooks/index.js';
import { checkSecrets } from '../webhooks/secret.js';
import { accountHookPath, accountWebhookSecret } from './account-secrets.js';
import { UsageError } from './connect.js';
import { readAccountsFile, requireAccountKeys } from './fleet-accounts.js';

/** A step of one account's subscriptions. @internal */
export type FleetEnsureStep = EnsureWebhookStep & { account: string };

/**
 * Runs `ensureWebhooks` for each account, in the file's order, with `{url}/{account}` as the base and
 * the account's secret derived from `mainSecret`. Every key variable must be set before any account
 * is changed; an account that fails stops the rest (a second run goes on: it is idempotent).
 * @example `await ensureFleetWebhooks({ url: 'https://example.com/hooks/seo', accounts: 'accounts.json', dryRun: true }, secret)`
 * @internal
 */
export async function ensureFleetWebhooks(
  opts: { url: string; accounts: string; events?: KnownWebhookEventName[] | undefined; dryRun?: boolean | undefined },
  mainSecret: string,
): Promise<FleetEnsureStep[]> {
  checkSecrets(mainSecret);
  const file = readAccountsFile(opts.accounts);
  requireAccountKeys(file, "Each account's subscriptions are made on its own key.");
  const steps: FleetEnsureStep[] = [];
  for (const [id, account] of Object.entries(file.accounts)) {
    const client = new SeoVisibilityClient({ ...account.client, apiKey: account.apiKey });
    try {
      const secret = await accountWebhookSecret(mainSecret, id);
      const done = await ensureWebhooks(client, {
        url: accountHookPath(opts.url, id),
        secret,
        ...(opts.events ? { events: opts.events } : {}),
        dryRun: opts.dryRun === true,
      });
      steps.push(...done.map((step) => ({ account: id, ...step })));
    } catch (error) {
      // The SDK's messages never hold a key or a secret; the account is named for the reader.
      if (error instanceof Error && !(error instanceof UsageError) && error.name !== 'InvalidArgumentError')
        error.message = `account ${id}: ${error.message}`;
      throw error;
    }
  }
  return steps;
}
