import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { expectOk, runTsc, writePgFreeTsconfig } from './support.js';

// A strict TypeScript user (`skipLibCheck: false`, so every shipped .d.ts the import reaches is
// checked) of `seo-visibility/fleet` or `seo-visibility/webhooks` without `@types/pg`: pg ships no
// types of its own, so a fleet's user has `pg` installed and may well not have `@types/pg`, and a
// webhook receiver on Workers or with the memory dedupe store has neither. Their declarations
// imported `Pool` from 'pg' (createFleet's `postgres`, postgresDedupeStore's target), which failed
// the compile with TS2307 "Cannot find module 'pg'". test/package/sync-consumer.test.ts is the same
// check for seo-visibility/sync.
const consumerDir = inject('consumerDir');

const sources: Record<string, string[]> = {
  fleet: [
    "import { createFleet, type FleetOptions } from 'seo-visibility/fleet';",
    '',
    "const options: FleetOptions = { postgres: 'postgres://u@127.0.0.1/db', accounts: { acme: { apiKey: 'k', job: { projects: 'all' } } } };",
    'export const fleet = () => createFleet(options);',
    '',
  ],
  webhooks: [
    "import { createWebhookReceiver, memoryDedupeStore, postgresDedupeStore } from 'seo-visibility/webhooks';",
    '',
    "export const receiver = () => createWebhookReceiver({ secret: 'whsec_x', dedupe: memoryDedupeStore() });",
    "export const shared = () => postgresDedupeStore('postgres://u@127.0.0.1/db');",
    '',
  ],
};

// Four consumer files (each entry, ESM and CommonJS) in one tsc program: one compile instead of
// four, in a pass of `npm test` that is mostly compiles.
const files: Array<[entry: string, file: string]> = [
  ['fleet', 'fleet-consumer.ts'],
  ['fleet', 'fleet-consumer.cts'],
  ['webhooks', 'webhooks-consumer.ts'],
  ['webhooks', 'webhooks-consumer.cts'],
];

describe('seo-visibility/fleet and /webhooks in a strict TypeScript project without @types/pg', () => {
  it('type-check (ESM and CommonJS, nodenext, skipLibCheck off, no pg or @types/pg installed)', async () => {
    expect(existsSync(join(consumerDir, 'node_modules', 'pg')), 'the scratch project must not have pg').toBe(false);
    expect(
      existsSync(join(consumerDir, 'node_modules', '@types', 'pg')),
      'the scratch project must not have @types/pg',
    ).toBe(false);
    for (const [entry, file] of files)
      await writeFile(join(consumerDir, file), (sources[entry] as string[]).join('\n'));
    const config = await writePgFreeTsconfig(
      consumerDir,
      'tsconfig.pg-free.json',
      files.map(([, file]) => file),
    );
    expectOk(await runTsc(7, ['-p', config], { cwd: consumerDir }), 'tsc (fleet and webhooks consumers)');
  });
});
