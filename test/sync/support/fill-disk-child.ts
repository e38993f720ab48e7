/**
 * Writes pages into a sqliteStore at argv[2] until a write fails, then prints `failed <json>` with
 * the error's name, code and message, or `committed <n>` if none did. Run with a file-size limit
 * (ulimit -f) to stand for a full disk.
 */
import { TABLE_SCHEMAS, sqliteStore } from '../../../src/sync/index.js';

const store = sqliteStore(process.argv[2] ?? '');
await store.open();
const table = TABLE_SCHEMAS['content.list'];
let n = 0;
try {
  for (; n < 2_000; n++) {
    const rows = Array.from({ length: 50 }, (_, j) => ({ project_id: 'p', id: `${n}-${j}`, title: 'x'.repeat(500) }));
    await store.commit({ writes: [{ table, rows }], state: { pages: n + 1 } });
  }
  process.stdout.write(`committed ${n}\n`);
} catch (error) {
  const e = error as Error & { code?: string };
  process.stdout.write(
    `failed ${JSON.stringify({ name: e.name, code: e.code, message: e.message, pages: store.get('pages') })}\n`,
  );
}
