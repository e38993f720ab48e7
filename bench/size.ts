/**
 * 6. Size and start: the browser bundle of the main entry (ESM, minified, gzipped, dependencies
 * included), each part's share, and `import` time in Node.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { LIMIT_BYTES, bundleForNode, measure } from '../scripts/size.js';
import { QUICK, type Row, kib, median, ms } from './lib.js';

/** Median time of `import(file)` in a fresh Node process. */
function importTime(file: string, runs: number): number {
  const script = `const t = performance.now(); await import(${JSON.stringify(pathToFileURL(file).href)}); console.log(performance.now() - t);`;
  const times = Array.from({ length: runs }, () =>
    Number(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }).trim()),
  );
  return median(times);
}

export async function size(): Promise<Row[]> {
  const main = await measure('src/index.ts');
  const rows: Row[] = [
    {
      section: '6. Size',
      figure: 'main entry, browser ESM, minified + gzipped, dependencies included',
      value: `${kib(main.gzipped)} (${kib(main.minified)} minified)`,
      peer: 'openai SDK ≈ 37 KiB, validates nothing',
      target: `≤ ${kib(LIMIT_BYTES)} (budget)`,
      pass: main.gzipped <= LIMIT_BYTES,
      binding: true,
    },
  ];
  // What each dependency costs, gzipped: the bundle with it against the bundle without it.
  const dependencies: Record<string, string[]> = {
    ky: ['ky'],
    'zod/mini': ['zod/mini'],
    'p-retry (+ is-network-error)': ['p-retry'],
  };
  for (const [name, specifiers] of Object.entries(dependencies)) {
    const rest = await measure('src/index.ts', specifiers);
    rows.push({
      section: '6. Size',
      figure: `  part: ${name}`,
      value: `${kib(main.gzipped - rest.gzipped)} gzipped`,
      peer: '',
      target: '',
      pass: undefined,
    });
  }
  for (const { part, minified } of main.parts.filter((p) => p.part.startsWith('src/'))) {
    rows.push({
      section: '6. Size',
      figure: `  part: ${part}`,
      value: `${kib(minified)} minified`,
      peer: '',
      target: '',
      pass: undefined,
    });
  }

  const dir = mkdtempSync(join(tmpdir(), 'seo-visibility-bench-'));
  try {
    const sdk = join(dir, 'sdk.mjs');
    const kyOnly = join(dir, 'ky.mjs');
    writeFileSync(sdk, await bundleForNode('src/index.ts'));
    // ky builds a Request when it loads (feature checks), which loads Node's whole fetch stack: about
    // 20 ms that any first request pays anyway. The peer is ky alone, so the figure is what the SDK adds.
    writeFileSync(kyOnly, await bundleForNode('bench/ky-only.ts'));
    const runs = QUICK ? 3 : 15;
    const sdkMs = importTime(sdk, runs);
    const kyMs = importTime(kyOnly, runs);
    rows.push({
      section: '6. Start',
      figure: 'import time in Node (bundled main entry, fresh process)',
      value: `${ms(sdkMs, 1)} (+${ms(sdkMs - kyMs, 1)} over ky alone)`,
      peer: `ky alone: ${ms(kyMs, 1)}`,
      target: '≤ ky + 15 ms',
      pass: sdkMs - kyMs <= 15,
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}
