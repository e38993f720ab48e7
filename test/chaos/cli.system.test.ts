/**
 * System: the CLI (`seo-visibility sync`) against the simulator's HTTP form in chaos mode, where
 * every request gets a 5xx (as the API's envelope, a proxy's HTML page or a success body with 500)
 * whose message may set the terminal's title, clear it or reverse its reading order, and echoes the
 * key. What the CLI prints must carry no control character or bidi override, and no key; it must
 * exit within its bound.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSimulator } from '../../src/testing/index.js';
import { journalText } from './support/account.js';
import { NO_KEY, NO_TERMINAL_CONTROL, SETTLES } from './support/properties.js';
import { REPLAY_SEED, chaosSeeds, Verdicts } from './support/seeds.js';

const FILE = 'test/chaos/cli.system.test.ts';
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** The fast set: seeds whose last answer is the API's envelope carrying terminal escapes (OSC title, RTL override). */
const FAST_SEEDS = [5, 9, 10];
const SEEDS = REPLAY_SEED !== undefined ? [REPLAY_SEED] : process.env.CHAOS_RUNS ? chaosSeeds(3) : FAST_SEEDS;
const BOUND_MS = 60_000;
/** C0 controls but tab and newline, DEL, C1 controls, and the bidi embeddings, overrides and isolates. */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

let dir: string;
beforeAll(() => void (dir = mkdtempSync(join(tmpdir(), 'sv-chaos-cli-'))));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('chaos (system): the CLI prints no server control text and no key', () => {
  it(
    'seo-visibility sync under 5xx answers with terminal escapes and echoed keys',
    async () => {
      const verdicts = new Verdicts(FILE);
      for (const seed of SEEDS) {
        const sim = createSimulator({
          seed: 3,
          keywordsPerProject: 5,
          rateLimit: false,
          chaos: { seed, rate: 1, faultyAttempts: 100, kinds: ['server-error', 'hostile-values', 'key-echo'] },
        });
        const server = await sim.listen({ port: 0 });
        try {
          const run = await runCli(['sync', '--db', join(dir, `cli-${seed}.db`)], {
            SEO_VISIBILITY_BASE_URL: server.url,
            SEO_VISIBILITY_API_KEY: sim.keys.readOnly,
          });
          const shown = (text: string) => JSON.stringify(text.slice(-300));
          verdicts.check(
            seed,
            SETTLES,
            !run.hung,
            () => `the CLI was still running after ${BOUND_MS / 1000} s; ${journalText(sim)}`,
          );
          verdicts.check(
            seed,
            NO_TERMINAL_CONTROL,
            !CONTROL.test(run.output),
            () => `the CLI printed ${shown(run.output)}`,
          );
          verdicts.check(
            seed,
            NO_KEY,
            !run.output.includes(sim.keys.readOnly),
            () => `the CLI printed the key: ${shown(run.output.replaceAll(sim.keys.readOnly, '<KEY>'))}`,
          );
        } finally {
          await server.close();
        }
      }
      console.info(verdicts.summary('cli test', SEEDS.length));
      expect(verdicts.breaks).toEqual([]);
    },
    SEEDS.length * 70_000,
  );
});

function runCli(args: string[], env: Record<string, string>): Promise<{ output: string; hung: boolean }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/index.ts', ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let hung = false;
    const timer = setTimeout(() => {
      hung = true;
      child.kill('SIGKILL');
    }, BOUND_MS);
    child.stdout.on('data', (d: Buffer) => void (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => void (output += d.toString()));
    child.on('exit', () => {
      clearTimeout(timer);
      resolve({ output, hung });
    });
  });
}
