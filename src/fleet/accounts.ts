import { type ClientOptions, InvalidArgumentError, SeoVisibilityClient } from '../index.js';
import { DOCUMENTED_WINDOWS, type SyncBudget, type SyncJob, type SyncWindow } from '../sync/index.js';
import { FleetError } from './errors.js';
import { type FleetAccount, type FleetAccounts, type FleetClientOptions, checkAccountId } from './options.js';

/** An account ready to run in this worker: its client holds the key; nothing else here does. @internal */
export interface ResolvedAccount {
  id: string;
  client: SeoVisibilityClient;
  job: SyncJob;
  budget: SyncBudget | undefined;
  /** The key's rate windows: the client's pacing, and the budget runs are planned and stopped on. */
  windows: SyncWindow[];
}

/**
 * The fleet's accounts, as this worker's configuration gives them. Jobs carry ids only; the key is
 * looked up here, when the job runs, and never leaves the client it is given to.
 * @internal
 */
export class Accounts {
  readonly #source: FleetAccounts;
  readonly #shared: FleetClientOptions | undefined;

  constructor(source: FleetAccounts, shared: FleetClientOptions | undefined) {
    this.#source = source;
    this.#shared = shared;
  }

  /** The ids `which` names: every configured account for `'all'` (a function cannot be listed). */
  ids(which: unknown, what: string): string[] {
    if (which === undefined || which === 'all') {
      if (typeof this.#source === 'function')
        throw new FleetError(
          'unknown_account',
          `${what}('all') needs the accounts as an object; with accounts given as a function, pass the account ids: ${what}(['acme', …])`,
        );
      return Object.keys(this.#source);
    }
    if (!Array.isArray(which) || which.length === 0)
      throw new FleetError('unknown_account', `${what}: expected 'all' or a non-empty array of account ids`);
    const ids = which.map((id, i) => checkAccountId(id, `accounts[${i}]`));
    if (typeof this.#source !== 'function') {
      const unknown = ids.filter((id) => !Object.hasOwn(this.#source, id));
      if (unknown.length)
        throw new FleetError(
          'unknown_account',
          `${what}: no account ${unknown.map((id) => `'${id}'`).join(', ')} in the configuration (known: ${Object.keys(this.#source).join(', ') || 'none'})`,
        );
    }
    return [...new Set(ids)];
  }

  /** Whether the configuration can list its accounts. */
  get listable(): boolean {
    return typeof this.#source !== 'function';
  }

  /** What the account `id` copies (its job), without building a client on its key. */
  async job(id: string): Promise<SyncJob> {
    return (await this.#account(id)).job;
  }

  /** The account `id`, with a client built on its key. */
  async resolve(id: string): Promise<ResolvedAccount> {
    const account = await this.#account(id);
    const options = { ...this.#shared, ...account.client };
    const pacing = options.rateLimit === false ? undefined : options.rateLimit?.windows;
    return {
      id,
      client: clientOf(id, { ...options, apiKey: account.apiKey }),
      job: account.job,
      budget: account.budget,
      windows: pacing ? [...pacing] : [...DOCUMENTED_WINDOWS],
    };
  }

  async #account(id: string): Promise<FleetAccount> {
    const account: FleetAccount | undefined =
      typeof this.#source === 'function'
        ? await this.#source(id)
        : Object.hasOwn(this.#source, id)
          ? this.#source[id]
          : undefined;
    if (!account)
      throw new FleetError(
        'unknown_account',
        `No account '${id}' in this worker's configuration (removed from it?): its job is failed, not retried. Every worker needs every account it may be handed; enqueue it again once they hold it`,
      );
    return account;
  }
}

/**
 * The account's client. A refused option (a key with a trailing CR/LF, say) names the account as
 * well as the option: a fleet's status and log lines are read account by account. The client's
 * messages never hold the key, and neither does this one.
 */
function clientOf(id: string, options: ClientOptions): SeoVisibilityClient {
  try {
    return new SeoVisibilityClient(options);
  } catch (error) {
    const e = error as { name?: unknown; argument?: unknown; message?: unknown };
    if (e?.name !== 'InvalidArgumentError' || typeof e.argument !== 'string' || typeof e.message !== 'string')
      throw error;
    throw new InvalidArgumentError(`accounts.${id}.${e.argument}`, e.message.slice(`Invalid ${e.argument}: `.length));
  }
}
