import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../src/index.js';
import { createFleet } from '../../src/fleet/index.js';

const account = { apiKey: 'sv_live_abc', job: { projects: 'all' as const } };
const make = (options: unknown) => () => createFleet(options as never);

describe('createFleet options', () => {
  it('are checked before anything connects: each bad value names its option and what is allowed', () => {
    expect(make({ accounts: { acme: account } })).toThrow(
      /Invalid postgres: expected a connection string or a pg.Pool/,
    );
    expect(make({ postgres: '', accounts: { acme: account } })).toThrow(/Invalid postgres/);
    expect(make({ postgres: 'postgres://x', accounts: 'acme' })).toThrow(
      /Invalid accounts: expected an object of account id/,
    );
    expect(make({ postgres: 'postgres://x', accounts: { 'bad id!': account } })).toThrow(
      /Invalid accounts key: expected an account id of letters/,
    );
    expect(make({ postgres: 'postgres://x', accounts: { acme: { job: { projects: 'all' } } } })).toThrow(
      /Invalid accounts\.acme\.apiKey: expected the API key/,
    );
    expect(make({ postgres: 'postgres://x', accounts: { acme: account }, client: { apiKey: 'x' } })).toThrow(
      /Invalid client: expected client options without apiKey/,
    );
    expect(make({ postgres: 'postgres://x', accounts: { acme: account }, schema: 'drop table;' })).toThrow(
      /Invalid schema: expected a Postgres identifier/,
    );
    expect(make({ postgres: 'postgres://x', accounts: { acme: account }, queue: { heartbeatSeconds: 5 } })).toThrow(
      /Invalid queue\.heartbeatSeconds: expected whole seconds from 10 to 3600/,
    );
  });

  it('refuse an unknown key, suggesting the one meant', () => {
    expect(make({ postgres: 'postgres://x', accounts: { acme: account }, acounts: {} })).toThrow(
      /Invalid acounts: not an option; did you mean accounts\?/,
    );
    expect(make({ postgres: 'postgres://x', accounts: { acme: { ...account, apikey: 'x' } } })).toThrow(
      /did you mean accounts\.acme\.apiKey\?/,
    );
    expect(make({ postgres: 'postgres://x', accounts: { acme: account }, queue: { heartbeatSecs: 10 } })).toThrow(
      /did you mean queue\.heartbeatSeconds\?/,
    );
  });

  it("throw the main entry's InvalidArgumentError, and never echo a key", () => {
    const error = (() => {
      try {
        createFleet({ postgres: 'postgres://x', accounts: { acme: { ...account, apiKey: 42 as never } } });
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect((error as InvalidArgumentError).argument).toBe('accounts.acme.apiKey');
    const withKey = (() => {
      try {
        createFleet({
          postgres: 'postgres://x',
          accounts: { acme: { ...account, apiKey: 'sv_live_secret_123', extra: 1 } as never },
        });
      } catch (e) {
        return e as Error;
      }
    })();
    expect(withKey?.message).not.toContain('sv_live_secret_123');
  });

  it('work, schedule and enqueue check their arguments before connecting', async () => {
    const fleet = createFleet({ postgres: 'postgres://nobody@127.0.0.1:1/none', accounts: { acme: account } });
    await expect(fleet.work({ concurency: 2 } as never)).rejects.toThrow(/did you mean concurrency\?/);
    await expect(fleet.work({ concurrency: 0 })).rejects.toThrow(
      /Invalid concurrency: expected an integer from 1 to 100/,
    );
    await expect(fleet.schedule('')).rejects.toThrow(/Invalid cron/);
    await expect(fleet.schedule('0 3 * * *', { timezone: 'UTC' } as never)).rejects.toThrow(
      /Invalid timezone: not an option; the options are tz, accounts/,
    );
    await expect(fleet.enqueue(['globex'])).rejects.toThrow(/no account 'globex' in the configuration \(known: acme\)/);
    await expect(fleet.enqueue([])).rejects.toThrow(/expected 'all' or a non-empty array/);
    await fleet.close();
    await expect(fleet.enqueue()).rejects.toThrow(/This fleet was closed/);
  });

  it("with accounts as a function, 'all' cannot be listed: enqueue says to pass ids", async () => {
    const fleet = createFleet({ postgres: 'postgres://nobody@127.0.0.1:1/none', accounts: () => account });
    await expect(fleet.enqueue()).rejects.toThrow(
      /needs the accounts as an object; with accounts given as a function, pass the account ids/,
    );
    await expect(fleet.schedule('0 3 * * *')).rejects.toThrow(/needs the accounts as an object/);
    await fleet.close();
  });
});
