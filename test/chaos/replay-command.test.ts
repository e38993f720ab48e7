import { describe, expect, it } from 'vitest';
import { replayCommand } from './support/seeds.js';

// A failing seed's replay line must run the file it names: the default vitest config excludes
// `*.system.test.ts`, so a system file's replay without the system config finds no test at all.
describe('the replay command of a failing chaos seed', () => {
  it('runs a unit file with the default config', () => {
    expect(replayCommand(42, 'test/chaos/sync.test.ts')).toBe('CHAOS_SEED=42 npx vitest run test/chaos/sync.test.ts');
  });

  it('runs a system file with the system config, which is the one that includes it', () => {
    expect(replayCommand(42, 'test/reliability/fleetchaos.system.test.ts')).toBe(
      'CHAOS_SEED=42 npx vitest run --config vitest.system.config.ts test/reliability/fleetchaos.system.test.ts',
    );
  });
});
