/**
 * A copy keeps every value the API sends, also in the fields the SDK types (issue 22 §1: "No value
 * the API sends may stop a copy"). The sync read through the typed methods, whose schema refuses a
 * whole page for one value of another type: `desktop_position: null` (an unranked keyword), `1.5`,
 * `"n/a"`, a number past 2^53, a null in the backlink summary or a prompt answer's `is_visible:
 * "yes"` failed that dataset of every project on every run ("Response data does not match the
 * documented shape … Run again to retry"). The copy now reads each page as the API sent it; the
 * stores hold any value (column-values.ts). Served in process: the simulator, one field edited.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { SeoVisibilityClient } from '../../../src/index.js';
import { type DatasetName, ndjsonStore, runSync, sqliteStore } from '../../../src/sync/index.js';
import { createSimulator } from '../../../src/testing/index.js';

const T0 = Date.UTC(2026, 5, 10, 12, 0, 0);

/** A client whose responses on `path` have the first match of `pattern` replaced (the wire text, so `1e400` stays as sent). */
function clientWith(path: RegExp, pattern: RegExp, replacement: string) {
  const sim = createSimulator({ seed: 7, keywordsPerProject: 5, now: () => T0, rateLimit: false });
  const fetch = async (input: string | URL | Request, init?: RequestInit) => {
    const response = await sim.fetch(input, init);
    if (!path.test(new URL(new Request(input, init).url).pathname) || response.status !== 200) return response;
    const headers = new Headers(response.headers);
    headers.delete('content-length');
    return new Response((await response.text()).replace(pattern, replacement), { status: 200, headers });
  };
  return new SeoVisibilityClient({
    apiKey: sim.keys.readOnly,
    baseUrl: sim.baseUrl,
    fetch,
    rateLimit: { windows: false },
    retryBackoff: { initialDelay: 1, maxDelay: 2 },
  });
}

async function copy(client: SeoVisibilityClient, datasets: DatasetName[]) {
  const dir = mkdtempSync(join(tmpdir(), 'sv-raw-reads-'));
  const sqlite = await runSync(
    client,
    { projects: 'all', datasets },
    { store: sqliteStore(join(dir, 'copy.db')), now: () => T0 },
  ).catch((e: Error) => e);
  const ndjson = await runSync(
    client,
    { projects: 'all', datasets },
    { store: ndjsonStore(join(dir, 'nd')), now: () => T0 },
  ).catch((e: Error) => e);
  const outcome = (r: unknown) =>
    r instanceof Error ? `${r.name}: ${r.message.split('\n')[1] ?? r.message}` : (r as { status: string }).status;
  return { sqlite: outcome(sqlite), ndjson: outcome(ndjson), db: join(dir, 'copy.db'), nd: join(dir, 'nd') };
}

const ndjsonRows = (dir: string, table: string) =>
  readFileSync(join(dir, `${table}.ndjson`), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe('a copy keeps values the typed methods refuse', () => {
  it.each([
    ['null', null],
    ['1.5', 1.5],
    ['"n/a"', 'n/a'],
    ['12345678901234567890', Number('12345678901234567890')], // past 2^53: the nearest double, as JSON.parse reads it
  ])('rankings.list with desktop_position %s: completed, the value stored in both stores', async (literal, value) => {
    const client = clientWith(/\/rankings\/keywords$/, /"desktop_position":\d+/, `"desktop_position":${literal}`);
    const { sqlite, ndjson, db, nd } = await copy(client, ['rankings.list']);
    expect({ sqlite, ndjson }).toEqual({ sqlite: 'completed', ndjson: 'completed' });
    const read = new DatabaseSync(db, { readOnly: true });
    const stored = read
      .prepare('SELECT desktop_position FROM rankings_list')
      .all()
      .map((r) => r['desktop_position']);
    read.close();
    expect(stored).toContain(value);
    expect(ndjsonRows(nd, 'rankings_list').map((r) => r['desktop_position'])).toContain(value);
  });

  it('backlinks.summary with a null count (a single response): completed, stored as NULL', async () => {
    const client = clientWith(/\/backlinks\/summary$/, /"total_backlinks":\d+/, '"total_backlinks":null');
    const { sqlite, ndjson, nd } = await copy(client, ['backlinks.summary']);
    expect({ sqlite, ndjson }).toEqual({ sqlite: 'completed', ndjson: 'completed' });
    expect(ndjsonRows(nd, 'backlinks_summary').map((r) => r['total_backlinks'])).toContain(null);
  });

  it('prompts.history with is_visible "yes" (items under data.responses): completed, stored as sent', async () => {
    const client = clientWith(/\/prompts\/[^/]+\/history$/, /"is_visible":(true|false)/, '"is_visible":"yes"');
    const { sqlite, ndjson, nd } = await copy(client, ['prompts.history']);
    expect({ sqlite, ndjson }).toEqual({ sqlite: 'completed', ndjson: 'completed' });
    expect(ndjsonRows(nd, 'prompts_history').map((r) => r['is_visible'])).toContain('yes');
  });

  it('a page whose items are not records still fails, naming the item', async () => {
    const client = clientWith(/\/rankings\/keywords$/, /"data":\[\{/, '"data":[7,{');
    const { sqlite } = await copy(client, ['rankings.list']);
    expect(sqlite).toMatch(/ResponseValidationError: .*expected a record \(an object\)/);
  });
});
