import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SeoVisibilityClient } from '../../src/index.js';
import { SyncError, runSync, sqliteStore } from '../../src/sync/index.js';
import { type Loopback, forward, startLoopback } from '../reliability/support/loopback.js';
import { type Account, startAccount } from './support/account.js';

let account: Account;
let server: Loopback;
let broken = '';

beforeAll(async () => {
  account = await startAccount({ keywords: 5 });
  // The simulator, except one project's content list, which answers 200 with a body that is not JSON.
  server = await startLoopback(async (exchange) => {
    if (exchange.hit.path === `/projects/${broken}/content`) {
      exchange.res.writeHead(200, { 'content-type': 'application/json' }).end('<html>upstream hiccup</html>');
      return;
    }
    await forward(account.sim, exchange);
  });
}, 60_000);
afterAll(async () => {
  await server?.close();
  await account?.close();
});

describe('a request that fails for good', () => {
  it('is a SyncError (request_failed) naming the dataset, the project and the endpoint, with the client error as its cause', async () => {
    broken = account.sim.data.listedProjects[1]?.id as string;
    const client = new SeoVisibilityClient({
      apiKey: account.sim.keys.readOnly,
      baseUrl: server.url,
      retryBackoff: { initialDelay: 1, maxDelay: 5 },
      maxRetries: 1,
      rateLimit: { windows: false },
    });
    const error = await runSync(
      client,
      { projects: 'all', datasets: ['content.list'] },
      { store: sqliteStore(join(account.dir, 'broken.db')), now: account.now },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SyncError);
    expect(error).toMatchObject({ code: 'request_failed' });
    expect((error as Error).message).toMatch(
      new RegExp(
        `^Reading content\\.list of project ${broken} \\(GET /projects/${broken}/content\\?offset=0\\) failed: \\w+Error: `,
      ),
    );
    expect((error as Error & { cause?: Error }).cause?.name).toMatch(/Error$/);
    expect((error as Error).message).not.toContain(account.sim.keys.readOnly);
  });
});
