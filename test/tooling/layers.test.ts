import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { cruise, type ICruiseResult, type IConfiguration } from 'dependency-cruiser';
import { describe, expect, it } from 'vitest';

// `npm run circles` runs dependency-cruiser with .dependency-cruiser.cjs over src/. These tests run
// the same rules, in process through dependency-cruiser's API, over small trees in
// test/fixtures/layers/<case>/src that each break (or keep) one rule, so each rule is seen to fail.
const root = fileURLToPath(new URL('../..', import.meta.url));
const require = createRequire(import.meta.url);
const config = require(`${root}.dependency-cruiser.cjs`) as IConfiguration;
const { CORE_LAYERS, LAYERS, PENDING } = require(`${root}scripts/layers.cjs`) as {
  CORE_LAYERS: string[][];
  LAYERS: string[][];
  PENDING: Array<[string, string]>;
};

interface Violation {
  rule: string;
  severity: string;
  from: string;
  to: string;
}

async function cruiseFixture(name: string): Promise<Violation[]> {
  const { output } = await cruise(['src'], {
    ...config.options,
    // The fixtures resolve their `./x.js` imports without a tsconfig; src/ is cruised with one.
    tsConfig: undefined,
    baseDir: `${root}test/fixtures/layers/${name}`,
    ruleSet: { forbidden: config.forbidden },
    validate: true,
  });
  const result = output as ICruiseResult;
  return (result.summary.violations ?? []).map((v) => ({
    rule: v.rule.name,
    severity: v.rule.severity,
    from: v.from,
    to: v.to,
  }));
}

const errors = (violations: Violation[]) => violations.filter((v) => v.severity === 'error');

describe('the layer rules of npm run circles', () => {
  it('fail on a circle of folders that no two files show', async () => {
    const violations = await cruiseFixture('folder-circle');
    // core/alpha → core/beta → core/alpha, while every file imports one way only.
    expect(violations.some((v) => v.rule === 'no-circular')).toBe(false);
    expect(errors(violations).map((v) => v.rule)).toContain('no-folder-circle');
    expect(violations.find((v) => v.rule === 'no-folder-circle')?.from).toMatch(/^src\/core\/(alpha|beta)$/);
  });

  it('fail on an import up a layer, even a type-only one in no circle', async () => {
    const violations = errors(await cruiseFixture('upward'));
    expect(violations).toEqual([
      { rule: 'layer-internal', severity: 'error', from: 'src/internal/helper.ts', to: 'src/core/transport.ts' },
    ]);
  });

  it('fail on a src/ folder that is in no layer', async () => {
    const violations = errors(await cruiseFixture('unknown'));
    expect(violations.map((v) => [v.rule, v.from])).toEqual([['layer-unknown', 'src/misc/thing.ts']]);
  });

  it("fail on an import up core/'s subsystems, and on a core/ file in none of them", async () => {
    const violations = errors(await cruiseFixture('core'));
    expect(violations.map((v) => [v.rule, v.from, v.to]).sort()).toEqual([
      ['layer-core-response', 'src/core/response/read-response.ts', 'src/core/transport/transport.ts'],
      ['layer-core-unknown', 'src/core/loose.ts', 'src/wire/meta.ts'],
    ]);
  });

  it('pass a tree whose every import points down the layers', async () => {
    expect(await cruiseFixture('downward')).toEqual([]);
  });

  it('fail on a sync → insights import: insights owns its views, no import is pending any more', async () => {
    expect(PENDING).toEqual([]);
    const violations = errors(await cruiseFixture('pending'));
    expect(violations.map((v) => [v.rule, v.from])).toContainEqual(['layer-sync', 'src/sync/store.ts']);
  });
});

describe('the layer table', () => {
  const folders = (path: string) =>
    readdirSync(`${root}${path}`, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);

  it('places every folder of src/ and of src/core/', () => {
    expect(folders('src').filter((folder) => !LAYERS.flat().includes(folder))).toEqual([]);
    expect(folders('src/core').filter((folder) => !CORE_LAYERS.flat().includes(folder))).toEqual([]);
  });

  it('is what docs/development.md draws, in the same order', () => {
    const doc = readFileSync(`${root}docs/development.md`, 'utf8');
    const section = /\n## Layers\n([\s\S]*?)\n## /.exec(doc)?.[1] ?? '';
    const diagrams = [...section.matchAll(/```text\n([\s\S]*?)```/g)].map((match) => match[1]!);
    expect(diagrams, 'docs/development.md, "Layers": the layers of src/, then of core/').toHaveLength(2);
    // Each diagram lists the layers top first, one line each: folders as `name/`, the entry files by name.
    const drawn = diagrams.map((diagram) =>
      diagram
        .trim()
        .split('\n')
        .map((line) => line.trim().split(/\s+/))
        .map((names) =>
          names.every((name) => name.endsWith('.ts')) ? [''] : names.map((name) => name.replace(/\/$/, '')),
        )
        .reverse(),
    );
    expect(drawn).toEqual([LAYERS, CORE_LAYERS]);
  });
});
