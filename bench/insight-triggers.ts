/**
 * 8c. What the insight triggers cost the copy: `ai_visibility_daily` is kept by triggers on
 * prompts_history (src/insights/ai-visibility-daily.ts), and in PostgreSQL `rankings_latest` by
 * triggers on rankings_history (src/insights/rankings-latest.ts), so every check a sync writes
 * costs more. Pages of 500 checks (AI answers: 20 projects, 10 prompts, 4 models; rankings: 20
 * projects, 1,000 keywords a day) are written into a store with the insight extension and into one
 * without, then written again unchanged (every row an update, as a re-read is); the difference per
 * 1,000 rows is set against the physical limit of the copy: the documented budget allows a request
 * every 300 ms, and a request brings at most 1,000 checks.
 *
 * `tsx bench/insight-triggers.ts [--quick]` runs this section alone.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { insightViews } from '../src/insights/create-views.js';
import { type Row as StoreRow, type SyncStore, TABLE_SCHEMAS, postgresStore, sqliteStore } from '../src/sync/index.js';
import { startPostgres } from '../test/helpers/postgres-server.js';
import { QUICK, type Row, median } from './lib.js';

const SECTION = '8c. Insight triggers';
const PAGE = 500;
const PAGES = QUICK ? 8 : 72;
const ROUNDS = QUICK ? 1 : 3;
/** The documented 200 requests a minute: one request every 300 ms, of at most 1,000 rows. */
const REQUEST_MS = 300;
/** The triggers may add at most a tenth of that per 1,000 checks. */
const TARGET_MS = REQUEST_MS / 10;

/** Page `n` of AI answers: 20 projects, 10 prompts, 4 models, about 800 checks a day. */
function answers(n: number): StoreRow[] {
  return Array.from({ length: PAGE }, (_, i) => {
    const k = n * PAGE + i;
    return {
      project_id: `p${k % 20}`,
      prompt_id: `q${(k >> 5) % 10}`,
      model: ['openai/gpt-5', 'perplexity/sonar', 'google/gemini', 'anthropic/claude'][k % 4],
      checked_at: new Date(Date.UTC(2026, 0, 1) + Math.floor(k / 800) * 86_400_000 + (k % 800) * 1000).toISOString(),
      prompt: 'prompt',
      is_visible: k % 3 === 0,
      position: k % 5,
      citations: [{ url: 'https://site.example/a' }],
    };
  });
}

/** Page `n` of ranking checks: 20 projects of 50 keywords each, 1,000 checks a day. */
function rankings(n: number): StoreRow[] {
  return Array.from({ length: PAGE }, (_, i) => {
    const k = n * PAGE + i;
    return {
      project_id: `p${k % 20}`,
      keyword_id: `k${k % 1000}`,
      check_date: new Date(Date.UTC(2026, 0, 1) + Math.floor(k / 1000) * 86_400_000).toISOString().slice(0, 10),
      keyword: 'keyword',
      desktop_position: k % 90,
      mobile_position: k % 70,
      source: 'history',
    };
  });
}

/** The checks each kind of kept table follows, and the stores that keep one for them. */
const KINDS = [
  { name: 'AI answers', dataset: 'prompts.history', page: answers, stores: ['SQLite', 'PostgreSQL'] },
  { name: 'ranking checks', dataset: 'rankings.history', page: rankings, stores: ['PostgreSQL'] },
] as const;

/** Seconds to write every page of `kind` twice (inserts, then updates) into a fresh store. */
async function writeAll(store: SyncStore, kind: (typeof KINDS)[number]): Promise<number> {
  await store.open();
  try {
    const sites = Array.from({ length: 20 }, (_, i) => ({
      id: `p${i}`,
      name: 'p',
      websiteUrl: 'https://site.example/',
    }));
    await store.commit({ writes: [{ table: TABLE_SCHEMAS['projects.list'], rows: sites }] });
    const start = performance.now();
    for (let pass = 0; pass < 2; pass++)
      for (let n = 0; n < PAGES; n++)
        await store.commit({ writes: [{ table: TABLE_SCHEMAS[kind.dataset], rows: kind.page(n) }] });
    return (performance.now() - start) / 1000;
  } finally {
    await store.close();
  }
}

export async function insightTriggersBench(): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), 'sv-bench-triggers-'));
  const postgres = await startPostgres();
  const rows: Row[] = [];
  let made = 0;
  const fresh = {
    SQLite: (extensions: boolean) =>
      sqliteStore(join(dir, `s${made++}.db`), extensions ? { extensions: [insightViews] } : {}),
    PostgreSQL: (extensions: boolean) =>
      postgresStore(postgres.url, { schema: `s${made++}`, ...(extensions ? { extensions: [insightViews] } : {}) }),
  };
  try {
    for (const kind of KINDS)
      for (const [store, make] of Object.entries(fresh)) {
        if (!(kind.stores as readonly string[]).includes(store)) continue;
        const plain: number[] = [];
        const kept: number[] = [];
        // Alternated, so a busy moment of the machine hits both alike.
        for (let round = 0; round < ROUNDS; round++) {
          plain.push(await writeAll(make(false), kind));
          kept.push(await writeAll(make(true), kind));
        }
        const writes = 2 * PAGES * PAGE;
        const [a, b] = [median(kept), median(plain)];
        const perThousand = ((a - b) * 1000 * 1000) / writes;
        rows.push({
          section: SECTION,
          figure: `${writes.toLocaleString('en-US')} writes of ${kind.name} in pages of ${PAGE} (inserts, then updates), ${store}`,
          value: `${a.toFixed(2)} s with the triggers: ${perThousand < 0 ? '−' : '+'}${Math.abs(perThousand).toFixed(1)} ms per 1,000 checks (median of ${ROUNDS})`,
          peer: `without them: ${b.toFixed(2)} s; one request of at most 1,000 checks every ${REQUEST_MS} ms (the documented budget)`,
          target: `≤ +${TARGET_MS} ms per 1,000 checks (a tenth of a request's wait)`,
          pass: perThousand <= TARGET_MS,
        });
      }
  } finally {
    await postgres.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

if (process.argv[1]?.endsWith('insight-triggers.ts')) {
  for (const row of await insightTriggersBench())
    process.stdout.write(`${row.pass ? 'PASS' : 'miss'} ${row.figure}: ${row.value} | ${row.peer} | ${row.target}\n`);
}
