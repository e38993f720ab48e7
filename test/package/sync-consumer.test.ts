import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { expectOk, runTsc, writePgFreeTsconfig } from './support.js';

// A strict TypeScript user of `seo-visibility/sync` who stores in SQLite only: no `pg`, no
// `@types/pg` in their project, and `skipLibCheck: false`, so every shipped .d.ts the import
// reaches is checked. The /sync declarations imported `Pool` from 'pg' (postgresStore's
// parameter), which failed this compile with TS2307 "Cannot find module 'pg'".
const consumerDir = inject('consumerDir');

const source = [
  "import { planSync, postgresStore, runSync, sqliteStore, type SyncStore } from 'seo-visibility/sync';",
  "import { SeoVisibilityClient } from 'seo-visibility';",
  '',
  "const client = new SeoVisibilityClient({ apiKey: 'k', baseUrl: 'http://127.0.0.1:1/api/v1' });",
  "const store: SyncStore = sqliteStore('seo.db');",
  "export const plan = () => planSync(client, { projects: 'all' }, { store });",
  "export const run = () => runSync(client, { projects: 'all' }, { store });",
  '// Naming postgresStore is fine; calling it with a URL needs no pg types either.',
  "export const later = () => postgresStore('postgres://u@127.0.0.1/db');",
  '',
].join('\n');

describe('seo-visibility/sync in a strict TypeScript project without pg', () => {
  it.each([
    ['ESM', 'sync-sqlite.ts'],
    ['CommonJS', 'sync-sqlite.cts'],
  ])('type-checks (%s, nodenext, skipLibCheck off, no pg or @types/pg installed)', async (_kind, file) => {
    expect(existsSync(join(consumerDir, 'node_modules', 'pg')), 'the scratch project must not have pg').toBe(false);
    expect(
      existsSync(join(consumerDir, 'node_modules', '@types', 'pg')),
      'the scratch project must not have @types/pg',
    ).toBe(false);
    await writeFile(join(consumerDir, file), source);
    const config = await writePgFreeTsconfig(consumerDir, `tsconfig.sync-${file.replace('.', '-')}.json`, [file]);
    expectOk(await runTsc(7, ['-p', config], { cwd: consumerDir }), `tsc (${file})`);
  });
});
