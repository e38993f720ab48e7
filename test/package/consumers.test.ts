import { copyFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { SmokeServer } from '../runtimes/sim-server.js';
import { startSmokeServer } from '../runtimes/sim-server.js';
import { expectOk, lastJsonLine, repoRoot, run, runTsc } from './support.js';

// A user's view of the tarball: `import`, `require`, and TypeScript under each module resolution
// a consumer may use, all from a scratch project where the tarball was installed with npm.
const consumerDir = inject('consumerDir');
let server: SmokeServer;

beforeAll(async () => {
  for (const [from, to] of [
    ['runtimes/fixtures/smoke.mjs', 'smoke.mjs'],
    ['runtimes/fixtures/smoke-steps.mjs', 'smoke-steps.mjs'],
    ['package/fixtures/smoke.cjs', 'smoke.cjs'],
  ] as const) {
    await copyFile(join(repoRoot, 'test', from), join(consumerDir, to));
  }
  // The fixture opts out of the repo's type check (it imports the built package by name).
  for (const name of ['consumer', 'consumer-testing']) {
    const source = (await readFile(join(repoRoot, 'test', 'package', 'fixtures', `${name}.ts`), 'utf8')).replace(
      /^\/\/ @ts-nocheck.*\n/,
      '',
    );
    await writeFile(join(consumerDir, `${name}.ts`), source);
    await writeFile(join(consumerDir, `${name}.cts`), source);
  }
  server = await startSmokeServer(consumerDir);
});
afterAll(() => server?.close());

describe('the packed package, used the way users use it', () => {
  it('works with import (ESM) on Node 24', async () => {
    const { stdout } = expectOk(
      await run('node', ['smoke.mjs'], { cwd: consumerDir, env: server.env }),
      'node smoke.mjs',
    );
    expect(lastJsonLine(stdout)).toMatchObject({
      runtime: expect.stringMatching(/^node v24\./),
      projects: server.projects,
      rateLimited: { name: 'RateLimitedError', status: 429 },
      event: { name: 'audit.completed', pages: 42 },
    });
  });

  it('works with require (CJS), testing entry point included', async () => {
    const { stdout } = expectOk(
      await run('node', ['smoke.cjs'], { cwd: consumerDir, env: server.env }),
      'node smoke.cjs',
    );
    expect(lastJsonLine(stdout)).toMatchObject({
      projects: server.projects,
      rateLimited: { name: 'RateLimitedError' },
      simulatorLoads: true,
    });
  });

  it("serves the user's msw (the optional peer) with mswHandlers(sim) from seo-visibility/testing/msw", async () => {
    const script = [
      "import { setupServer } from 'msw/node';",
      "import { SeoVisibilityClient } from 'seo-visibility';",
      "import { createSimulator } from 'seo-visibility/testing';",
      "import { mswHandlers } from 'seo-visibility/testing/msw';",
      'const sim = createSimulator({ seed: 4 });',
      'const server = setupServer(...mswHandlers(sim));',
      "server.listen({ onUnhandledFrame: 'error' });",
      'const client = new SeoVisibilityClient({ apiKey: sim.keys.readOnly, baseUrl: sim.baseUrl });',
      'let n = 0; for await (const p of client.projects.list()) n++;',
      'server.close(); console.log(JSON.stringify({ n, expected: sim.data.listedProjects.length }));',
    ].join('\n');
    await writeFile(join(consumerDir, 'msw-smoke.mjs'), script);
    const { stdout } = expectOk(await run('node', ['msw-smoke.mjs'], { cwd: consumerDir }), 'node msw-smoke.mjs');
    const { n, expected } = lastJsonLine(stdout);
    expect(n).toBe(expected);
    expect(n).toBeGreaterThan(0);
  });

  // The fixtures touch the whole public surface; .cts makes TypeScript resolve the `require`
  // condition (index.d.cts) under node16/nodenext. skipLibCheck is off: the shipped .d.ts must check.
  // `seo-visibility/testing` references no msw type (its handlers live in `testing/msw`), so CJS +
  // testing checks under node16 too; only `testing/msw` needs ESM (msw itself is ESM-only).
  // TypeScript 7 under every resolution; TypeScript 6 under the strictest (nodenext, both formats),
  // for the projects that have not moved yet.
  it.each([
    [7, 'node16', 'node16', ['consumer.ts', 'consumer.cts', 'consumer-testing.ts', 'consumer-testing.cts']],
    [7, 'nodenext', 'nodenext', ['consumer.ts', 'consumer.cts', 'consumer-testing.ts', 'consumer-testing.cts']],
    [7, 'bundler', 'esnext', ['consumer.ts', 'consumer-testing.ts']],
    [6, 'nodenext', 'nodenext', ['consumer.ts', 'consumer.cts', 'consumer-testing.ts', 'consumer-testing.cts']],
  ] as const)(
    'type-checks a consumer with TypeScript %i under moduleResolution %s',
    async (version, moduleResolution, module, files) => {
      const tsconfig = {
        compilerOptions: {
          module,
          moduleResolution,
          target: 'es2022',
          lib: ['es2023', 'dom', 'dom.iterable'],
          types: [],
          strict: true,
          noEmit: true,
          skipLibCheck: false,
        },
        files: [...files],
      };
      const name = `tsconfig.${moduleResolution}-ts${version}.json`;
      await writeFile(join(consumerDir, name), JSON.stringify(tsconfig, null, 2));
      expectOk(await runTsc(version, ['-p', name], { cwd: consumerDir }), `tsc ${version} (${moduleResolution})`);
    },
  );

  // A Node-only project: no `dom` lib, only Node's own globals. A shipped .d.ts that names a
  // DOM-only type (e.g. `RequestInfo`) fails here with TS2552 while passing the checks above.
  it('type-checks a Node-only consumer (lib esnext, types node, skipLibCheck off)', async () => {
    const tsconfig = {
      compilerOptions: {
        module: 'nodenext',
        moduleResolution: 'nodenext',
        target: 'es2022',
        lib: ['esnext'],
        types: ['node'],
        // The scratch project installs only the tarball and msw: Node's types come from the repo.
        typeRoots: [join(repoRoot, 'node_modules', '@types')],
        strict: true,
        noEmit: true,
        skipLibCheck: false,
      },
      files: ['consumer.ts', 'consumer-testing.ts'],
    };
    await writeFile(join(consumerDir, 'tsconfig.node-only.json'), JSON.stringify(tsconfig, null, 2));
    expectOk(await runTsc(7, ['-p', 'tsconfig.node-only.json'], { cwd: consumerDir }), 'tsc (lib esnext, types node)');
  });
});
