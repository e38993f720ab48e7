import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The compilers the tests type-check with (packed consumers, the docs' examples), by path: both
 * packages name their command `tsc`, so which one `node_modules/.bin/tsc` is depends on the order
 * npm linked them. 7 is the native
 * compiler `npm i -D typescript` installs today (the devDependency `typescript-7`, an npm alias);
 * 6 is the last JavaScript one, which projects not yet moved still run (and tsup's `dts` needs).
 */
export const TSC = {
  7: join(root, 'node_modules', 'typescript-7', 'bin', 'tsc'),
  6: join(root, 'node_modules', 'typescript', 'bin', 'tsc'),
} as const;
