import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { SmokeServer } from '../runtimes/sim-server.js';
import { startSmokeServer } from '../runtimes/sim-server.js';
import { expectOk, repoRoot, run } from './support.js';

// The README's quick start in the project a newcomer makes with `npm init -y` ("type":
// "commonjs"), with the packed tarball installed: as the README says, the snippet is an ES module
// with top-level await, so it runs saved as .mjs and fails saved as .js, with Node's own message.
const consumerDir = inject('consumerDir');
let server: SmokeServer;
let project: string;
let snippet: string;

beforeAll(async () => {
  server = await startSmokeServer(consumerDir);
  const readme = await readFile(join(repoRoot, 'README.md'), 'utf8');
  // The first TypeScript block after "3. Make a call:", its list indentation removed.
  const block = /3\. Make a call:\s*\n\s*```ts\n([\s\S]*?)\n\s*```/.exec(readme)?.[1];
  if (!block) throw new Error('README.md: no ```ts block after "3. Make a call:"');
  snippet = block.replace(/^ {3}/gm, '');
  // Inside the scratch project, so `seo-visibility` resolves from its node_modules (the tarball).
  project = join(consumerDir, 'npm-init-y');
  await mkdir(project, { recursive: true });
  await writeFile(
    join(project, 'package.json'),
    `${JSON.stringify({ name: 'npm-init-y', version: '1.0.0', main: 'index.js', type: 'commonjs' }, null, 2)}\n`,
  );
});
afterAll(() => server?.close());

describe("the README's quick start in a fresh `npm init -y` project", () => {
  it('runs saved as quick-start.mjs (the README says so)', async () => {
    await writeFile(join(project, 'quick-start.mjs'), snippet);
    const { stdout } = expectOk(
      await run('node', ['quick-start.mjs'], { cwd: project, env: server.env }),
      'node quick-start.mjs',
    );
    expect(stdout).toMatch(/critical issues|no completed audit yet/);
  });

  it('fails saved as quick-start.js, as the README warns: CommonJS has no import or top-level await', async () => {
    await writeFile(join(project, 'quick-start.js'), snippet);
    const result = await run('node', ['quick-start.js'], { cwd: project, env: server.env });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(
      /import statement outside a module|top-level await|ERR_REQUIRE_ASYNC_MODULE|await is only valid/,
    );
  });

  it('the README says how to run its snippets in a CommonJS project', async () => {
    const readme = await readFile(join(repoRoot, 'README.md'), 'utf8');
    expect(readme).toMatch(/`npm init -y`[^\n]*\n?[^\n]*CommonJS/);
    expect(readme).toContain('.mjs');
  });
});
