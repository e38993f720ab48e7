/**
 * Issue 22's fresh adversarial run against the merged fixes (the "attack" slice): each row is one
 * defect the run found in code that passed its tests, tried again as a user would meet it.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { describe, test } from 'vitest';
import { SeoVisibilityClient } from '../../src/index.js';
import { ndjsonStore, runSync } from '../../src/sync/index.js';
import { createSimulator } from '../../src/testing/index.js';
import { shiftingFetch, shiftingList } from '../helpers/shifting-list.js';
import { settle } from './support/outcome.js';
import { useReport } from './support/report.js';

const report = useReport('attack');

describe('secrets: the key masking', () => {
  test('a key short enough to occur in response text is refused, not masked into every response', async () => {
    const keys = ['e', 'id', 'test'];
    const outcomes: string[] = [];
    let sent = 0;
    for (const key of keys) {
      const sim = createSimulator({ seed: 22, keys: { readOnly: key } });
      const outcome = await settle(
        (async () =>
          new SeoVisibilityClient({ apiKey: key, baseUrl: sim.baseUrl, fetch: sim.fetch }).projects.list())(),
      );
      outcomes.push(outcome.error === undefined ? 'answered' : (outcome.error as Error).name);
      sent += sim.requests.length;
    }
    report.check({
      area: 'Secrets: the key masking',
      input: "apiKey 'e', 'id' or 'test' (a placeholder that occurs in every response's text)",
      cases: keys.length,
      expected: 'InvalidArgumentError, InvalidArgumentError, InvalidArgumentError',
      observed: outcomes.join(', '),
      expectedServer: '0 requests',
      serverSaw: `${sent} requests`,
    });
  });

  test('a mixed-case key echoed as a header name (Headers lowercases names) reaches no error, header copy or hook', async () => {
    const key = 'sv_live_AbCdEf0123456789XyZqrs';
    const seen: unknown[] = [];
    const fetch = async () =>
      new Response(JSON.stringify({ success: false, error: { code: 'FORBIDDEN', message: 'no' }, meta: {} }), {
        status: 403,
        headers: { 'content-type': 'application/json', [`x-echo-${key}`]: '1' },
      });
    const client = new SeoVisibilityClient({
      apiKey: key,
      baseUrl: 'https://api.example.test/api/v1',
      fetch,
      rateLimit: false,
      hooks: { onResponse: (info) => void seen.push(info) },
    });
    const outcome = await settle(client.projects.list());
    const outputs = [inspect(outcome.error, { depth: 8 }), JSON.stringify(outcome.error), inspect(seen, { depth: 8 })];
    const leaks = outputs.filter((text) => text.toLowerCase().includes(key.toLowerCase())).length;
    report.check({
      area: 'Secrets: the key masking',
      input: 'a 403 whose header NAME holds the mixed-case key (x-echo-<key>)',
      cases: outputs.length,
      expected: 'the key in no output (error inspected, error as JSON, hook payloads), in any case',
      observed:
        leaks === 0
          ? 'the key in no output (error inspected, error as JSON, hook payloads), in any case'
          : `the key, lower-cased, in ${leaks} of ${outputs.length} outputs`,
      serverSaw: '1 request',
    });
  });
});

describe('copies: values the typed methods refuse', () => {
  test('one keyword of each project with desktop_position null, 1.5 or "n/a": the copy completes with every keyword', async () => {
    const T0 = Date.UTC(2026, 5, 10, 12, 0, 0);
    const observed: string[] = [];
    let requests = 0;
    for (const literal of ['null', '1.5', '"n/a"']) {
      const sim = createSimulator({ seed: 22, keywordsPerProject: 5, now: () => T0, rateLimit: false });
      const fetch = async (input: string | URL | Request, init?: RequestInit) => {
        const response = await sim.fetch(input, init);
        if (!/\/rankings\/keywords$/.test(new URL(new Request(input, init).url).pathname) || response.status !== 200)
          return response;
        const headers = new Headers(response.headers);
        headers.delete('content-length');
        return new Response(
          (await response.text()).replace(/"desktop_position":\d+/, `"desktop_position":${literal}`),
          { status: 200, headers },
        );
      };
      const client = new SeoVisibilityClient({
        apiKey: sim.keys.readOnly,
        baseUrl: sim.baseUrl,
        fetch,
        rateLimit: { windows: false },
        retryBackoff: { initialDelay: 1, maxDelay: 2 },
      });
      const dir = mkdtempSync(join(tmpdir(), 'sv-attack-'));
      const outcome = await settle(
        runSync(client, { projects: 'all', datasets: ['rankings.list'] }, { store: ndjsonStore(dir), now: () => T0 }),
      );
      const rows = readFileSync(join(dir, 'rankings_list.ndjson'), 'utf8').split('\n').filter(Boolean).length;
      const keywords = sim.data.listedProjects.reduce((n, p) => n + sim.data.keywords(p.id).count, 0);
      observed.push(
        `${literal}: ${outcome.error === undefined ? (outcome.value as { status: string }).status : 'failed'}, ${rows} of ${keywords} keywords`,
      );
      requests += sim.requests.length;
    }
    report.check({
      area: 'Sync: values the typed methods refuse',
      input: 'NDJSON: desktop_position null, 1.5 or "n/a" in one keyword of each project (each run)',
      cases: 3,
      expected:
        'null: completed, 20 of 20 keywords; 1.5: completed, 20 of 20 keywords; "n/a": completed, 20 of 20 keywords',
      observed: observed.join('; '),
      serverSaw: `${requests} requests`,
    });
  });
});

describe('iteration: items without a key', () => {
  test('pages of 100 over 250 keywords with neither id nor keyword_id (all, or only the last of page 1): every item once, 3 requests each', async () => {
    const observed: string[] = [];
    let requests = 0;
    for (const [name, keyed] of [
      ['none keyed', () => false],
      ['item 99 unkeyed', (i: number) => i !== 99],
    ] as const) {
      const sim = createSimulator({ seed: 22, keywordsPerProject: 5, rateLimit: false });
      const items = Array.from({ length: 250 }, (_, i) => ({
        ...(keyed(i) ? { id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}` } : {}),
        keyword: `kw ${i}`,
        desktop_position: 1,
        mobile_position: 1,
        ai_mode_position: 1,
        maps_position: 1,
        net_change: 0,
        location: 'US',
      }));
      const list = shiftingList(/\/rankings\/keywords$/, items, {
        afterPage: (served) => {
          if (served >= 50) throw new Error('50 pages for a list of 3');
        },
      });
      const client = new SeoVisibilityClient({
        apiKey: sim.keys.readOnly,
        baseUrl: sim.baseUrl,
        fetch: shiftingFetch(sim, [list]),
        rateLimit: { windows: false },
        maxRetries: 0,
      });
      const projectId = (await client.projects.list()).data[0]?.id as string;
      let yielded = 0;
      const outcome = await settle(
        (async () => {
          for await (const _ of client.rankings.list(projectId, { limit: 100 })) yielded++;
        })(),
      );
      observed.push(
        `${name}: ${outcome.error === undefined ? 'ended' : 'failed'}, ${yielded} items, ${list.served} requests`,
      );
      requests += list.served;
    }
    report.check({
      area: 'Iteration: items without a key',
      input: 'for await, pages of 100, a stable list of 250 keywords without id or keyword_id',
      cases: 2,
      expected: 'none keyed: ended, 250 items, 3 requests; item 99 unkeyed: ended, 250 items, 3 requests',
      observed: observed.join('; '),
      serverSaw: `${requests} list requests`,
    });
  });
});
