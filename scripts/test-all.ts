/**
 * `npm test`: every pass that proves the package, each under its own header, then one summary
 * line. Before it starts it says how long it expects to take: the times this machine recorded on
 * its last run (artifacts/test-times.json, gitignored), else the estimates below. A long pass that
 * leaves a core idle runs with shorter independent passes one after another beside it (the static
 * checks beside the unit suite; docs, size, Node 22, bench and the packed tarball beside the system
 * suite): its output shows as it runs, theirs whole after it (with `--only` and no long pass, the
 * others of a step run all at once, each shown when it ends). A failing pass does not stop the run
 * (the summary names every pass that failed, and the exit code is 1); `--bail` stops at the first
 * failure. A pass past its limit is stopped, with every process it started, and fails.
 *
 * What it changes on the machine, said before it happens: as root on Debian it installs whichever
 * of `chromium`, `redis-server` and `postgresql` is missing through apt (no upgrades, no
 * recommends; their output shown), and the Node 22 pass downloads Node 22 into npm's cache
 * (`npm exec node@22`). It rewrites no tracked file: the last pass checks that the working tree is
 * the committed tree (`git status` clean), which also catches a file `npm install` rewrote.
 *
 * Run: `npm test` (or `npm test -- --bail`, or `npm test -- --only size,docs` for some passes)
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { failureDigest } from './failure-digest.js';
import { changesFromHead, describeChanges } from './tree-state.js';

interface Pass {
  name: string;
  /** What the pass proves, and anything it does to the machine. */
  about: string;
  /** Seconds it takes on a 2-core machine, for the first run's estimate (later runs use recorded times). */
  estimate: number;
  /** Seconds after which the pass is stopped and fails, named (default: `limitOf` below). */
  limit?: number;
  /** Passes with the same `together` value, one after another in the list, run side by side. */
  together?: string;
  /**
   * First of a side-by-side step: a long pass whose output shows as it runs; the others run one
   * after another beside it (one lane, so at most two passes share the 2 cores), shown after it.
   */
  streams?: boolean;
  /** The command (run with the repo as its working directory), or a check run in this process. */
  command?: string[];
  check?: () => boolean;
}

const root = fileURLToPath(new URL('..', import.meta.url));
const timesFile = join(root, 'artifacts', 'test-times.json');
// `--only size,docs` (or `--only=size,docs`) runs those passes alone (names as in the headers), e.g.
// to re-run a failed one; `--bail` stops at the first failure. Node's parser refuses an unknown
// argument and an `--only` whose value was forgotten (`--only`, `--only --bail`): checked below,
// once the pass names are known, for a forgotten value must not run every pass.
let parsed: { bail?: boolean; only?: string } = {};
let argsError: (Error & { code?: string }) | undefined;
try {
  parsed = parseArgs({ options: { bail: { type: 'boolean' }, only: { type: 'string' } }, strict: true }).values;
} catch (error) {
  argsError = error as Error & { code?: string };
}
const bail = parsed.bail === true;
const onlyArg = argsError?.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' ? '' : parsed.only;
const only =
  onlyArg === undefined
    ? undefined
    : new Set(
        onlyArg
          .split(',')
          .map((n) => n.trim())
          .filter(Boolean),
      );

// Through npm, so `node_modules/.bin` (and its Node 24) comes first on the PATH.
const npm = (script: string) => ['npm', 'run', '--silent', script];

const before = changesFromHead(root);

const passes: Pass[] = [
  {
    name: 'system packages',
    about:
      'Chromium, redis-server and PostgreSQL for the browser, Redis and Postgres tests; as root on Debian, whichever is missing is installed with apt-get (output below)',
    estimate: 1,
    // apt may download and install a few hundred MB on a bare machine.
    limit: 1_800,
    command: ['bash', 'scripts/ensure-system-deps.sh'],
  },
  // The static checks beside the unit suite: tsc is one thread and the linters are short, so on their
  // own they left a core idle for most of their 20 s; none of them writes a file another reads.
  {
    name: 'unit',
    about: 'vitest run: every *.test.ts but the system and packed ones; in-process, injected clock (Node 24)',
    estimate: 60,
    together: 'static',
    streams: true,
    command: npm('test:unit'),
  },
  {
    name: 'typecheck',
    about: 'tsc over src, tests, examples, benchmarks and scripts',
    estimate: 40,
    together: 'static',
    command: npm('typecheck'),
  },
  {
    name: 'lint',
    about:
      'Biome, lint and format (biome.jsonc): unused imports and variables are errors, an unformatted file fails; no file is rewritten',
    estimate: 5,
    together: 'static',
    command: npm('lint'),
  },
  {
    name: 'import circles',
    about:
      'dependency-cruiser over src/ (.dependency-cruiser.cjs, layers in scripts/layers.cjs): fails on an import up a layer, a folder or file circle, or a folder in no layer',
    estimate: 15,
    together: 'static',
    command: npm('circles'),
  },
  // The system suite mostly waits (on child processes, real rate windows, Retry-After): its
  // workers leave CPU idle that the passes beside it use (the bench's binding figures are counts and
  // 429s, not times). The packed tarball runs beside it too (it is mostly npm install and child
  // processes): its build rewrites dist/, which no pass of this step reads (they all run src/, and
  // test/tooling/dist-readers.test.ts keeps it so).
  {
    name: 'system',
    about:
      'vitest.system.config.ts: the *.system.test.ts files: one PostgreSQL and one Redis for the run, the CLI, child processes, kill loops, examples (Node 24)',
    estimate: 360,
    together: 'beside system',
    streams: true,
    command: npm('test:system'),
  },
  {
    name: 'docs',
    about: 'TypeDoc into docs/api (gitignored), failing on any warning',
    estimate: 40,
    together: 'beside system',
    command: npm('docs'),
  },
  {
    name: 'size',
    about: 'the main entry gzipped for the browser, dependencies included, within its budget',
    estimate: 10,
    together: 'beside system',
    command: npm('size'),
  },
  {
    name: 'node 22 smoke',
    about:
      'a smoke set of unit files on Node 22 (downloaded into the npm cache by `npm exec node@22` on first use); the packed tarball runs on Node 22 too',
    estimate: 30,
    together: 'beside system',
    command: npm('test:node22'),
  },
  {
    name: 'bench quick',
    about: 'the benchmark in its short mode: request counts, read-ahead, 429s and size are binding',
    estimate: 60,
    together: 'beside system',
    command: npm('bench:quick'),
  },
  {
    name: 'packed tarball',
    about:
      'npm pack, installed in a scratch project: Node import/require/tsc, publint, attw, headless Chromium, Deno, Bun, workerd, and Node 22',
    estimate: 120,
    together: 'beside system',
    command: npm('test:packed'),
  },
  {
    name: 'tree unchanged',
    about:
      'the working tree is the committed tree: no pass, and not `npm install` before them, rewrote a tracked file or left an untracked one',
    estimate: 1,
    check: () => {
      const after = changesFromHead(root);
      if (after === undefined || after.length === 0) return true;
      console.error(`these paths differ from the committed tree (git status):\n${describeChanges(after, before)}`);
      return false;
    },
  },
];

/**
 * A pass that hangs (a server that never answers, a child that never exits) must not hold the run
 * until CI's own limit kills it unnamed: past its limit a pass is stopped, with every process it
 * started, and fails saying so. Four times its estimate and at least 5 minutes, or its own `limit`;
 * `NPM_TEST_PASS_LIMIT=<seconds>` sets one limit for every pass (a slower machine, or a test).
 */
const limitOf = (pass: Pass): number =>
  Number(process.env.NPM_TEST_PASS_LIMIT) > 0
    ? Number(process.env.NPM_TEST_PASS_LIMIT)
    : (pass.limit ?? Math.max(300, 4 * pass.estimate));

/** The process groups of the passes running now, stopped with this process (Ctrl-C included). */
const running = new Set<number>();
const stopGroup = (pid: number, signal: NodeJS.Signals) => {
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
};
// The passes' groups are not the terminal's, so Ctrl-C reaches this process alone: it is passed on,
// so each pass ends as it would have (Vitest's teardown stops its servers and removes their folders),
// and what is still running 10 s later is killed.
// Once interrupted, no pass starts, and the run ends 130 (interrupted), not 1 (a pass failed).
let interrupted: NodeJS.Signals | undefined;
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const)
  process.on(signal, () => {
    if (interrupted) return;
    interrupted = signal;
    for (const pid of running) stopGroup(pid, signal);
    const deadline = Date.now() + 10_000;
    setInterval(() => {
      if (running.size > 0 && Date.now() < deadline) return;
      for (const pid of running) stopGroup(pid, 'SIGKILL');
      process.exit(130);
    }, 100);
  });

if (argsError && onlyArg === undefined) {
  console.error(`npm test: ${argsError.message}; it takes --bail and --only <pass,pass>`);
  process.exit(2);
}
const selected = only ? passes.filter((p) => only.has(p.name)) : passes;
if (only && (only.size === 0 || selected.length !== only.size)) {
  console.error(
    `--only takes pass names (comma-separated) among: ${passes.map((p) => p.name).join(', ')}; got ${onlyArg === '' ? 'none' : JSON.stringify(onlyArg)}`,
  );
  process.exit(2);
}

/** Seconds per pass from the last run on this machine; empty on the first run. */
function recordedTimes(): Record<string, number> {
  try {
    return JSON.parse(readFileSync(timesFile, 'utf8')) as Record<string, number>;
  } catch {
    return {};
  }
}

/** Consecutive passes sharing `together` form one step; every other pass is a step of its own. */
function steps(list: Pass[]): Pass[][] {
  const out: Pass[][] = [];
  for (const pass of list) {
    const last = out.at(-1);
    if (pass.together && last?.[0]?.together === pass.together) last.push(pass);
    else out.push([pass]);
  }
  return out;
}

const clock = (seconds: number) => `${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s`;
const recorded = recordedTimes();
const timeOf = (p: Pass) => recorded[p.name] ?? p.estimate;
/** A step's time: its longest pass, or for a streaming step the longer of its first pass and its lane. */
const stepTime = (step: Pass[]) =>
  step[0]?.streams
    ? Math.max(
        timeOf(step[0]),
        step.slice(1).reduce((sum, p) => sum + timeOf(p), 0),
      )
    : Math.max(...step.map(timeOf));
const expected = steps(selected).reduce((sum, step) => sum + stepTime(step), 0);
const source = selected.every((p) => recorded[p.name] !== undefined)
  ? 'the last run on this machine, artifacts/test-times.json'
  : 'estimates for a 2-core machine';
process.stdout.write(`npm test: ${selected.length} passes, expected to take about ${clock(expected)} (${source})\n`);

/**
 * Runs a pass's command in a process group of its own, stopped with everything it started once the
 * pass is past its limit. `stream`: its output shows on this terminal as it comes (and is kept, for
 * the summary's digest of a failure); else it is kept only, to be shown whole when the pass ends, so
 * that passes side by side never interleave.
 */
function runPass(pass: Pass, stream: boolean): Promise<{ ok: boolean; output: string }> {
  const [command, ...args] = pass.command as string[];
  const limit = limitOf(pass);
  return new Promise((resolve) => {
    if (interrupted) {
      resolve({ ok: false, output: `npm test: ${pass.name} not started: the run was interrupted (${interrupted})\n` });
      return;
    }
    const child = spawn(command as string, args, {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
      // Piped, Vitest would drop its colours on a terminal: keep them as if it wrote there itself.
      env: { ...process.env, FORCE_COLOR: process.stdout.isTTY ? '1' : '0' },
    });
    const group = child.pid;
    if (group !== undefined) running.add(group);
    let output = '';
    const keep = (terminal: NodeJS.WriteStream) => (d: Buffer) => {
      if (stream) terminal.write(d);
      output += d.toString();
    };
    child.stdout.on('data', keep(process.stdout));
    child.stderr.on('data', keep(process.stderr));
    let settled = false;
    const end = (ok: boolean, note = '') => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (group !== undefined) running.delete(group);
      if (stream && note) process.stdout.write(note);
      resolve({ ok, output: `${output}${note}` });
    };
    const stopped = `\nnpm test: ${pass.name} stopped after its limit of ${limit} s, with every process it started\n`;
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      if (group !== undefined) stopGroup(group, 'SIGKILL');
      // A process that left the group (a daemon) may hold the output pipes open: end without them.
      const endSoon = () => setTimeout(() => end(false, stopped), 2_000).unref();
      if (child.exitCode !== null || child.signalCode !== null) endSoon();
      else child.once('exit', endSoon);
    }, limit * 1_000);
    child.on('error', (error) => end(false, `${String(error)}\n`));
    child.on('close', (code) => end(code === 0 && !timedOut, timedOut ? stopped : ''));
  });
}

// No top-level await: the script also runs where no package.json makes it a module (its own test).
/** A pass's outcome; `output` is kept for passes whose output went through this process. */
interface Result {
  name: string;
  ok: boolean;
  seconds: number;
  output?: string;
}

async function runAll(): Promise<{ results: Result[]; index: number }> {
  const results: Result[] = [];
  let index = 0;
  const header = (pass: Pass) => `npm test [${selected.indexOf(pass) + 1}/${selected.length}] ${pass.name}`;
  const footer = (pass: Pass, ok: boolean, seconds: number) =>
    `\n━━━ ${header(pass)}: ${ok ? 'passed' : 'FAILED'} (${seconds} s) ━━━\n`;

  for (const step of steps(selected)) {
    if (step.length === 1) {
      const pass = step[0] as Pass;
      process.stdout.write(`\n━━━ ${header(pass)} ━━━\n    ${pass.about}\n\n`);
      const t0 = Date.now();
      const { ok, output } = pass.check ? { ok: pass.check(), output: undefined } : await runPass(pass, true);
      results.push({ name: pass.name, ok, seconds: Math.round((Date.now() - t0) / 1000), output });
      process.stdout.write(footer(pass, ok, results.at(-1)!.seconds));
    } else if (step[0]?.streams) {
      // A long pass (the system suite) shows its progress as it goes; the passes beside it run one
      // after another in one lane: all at once they crowded the 2 cores (docs, bench, Node 22 and the
      // packed tarball beside two system workers), and the lane still ends well before the long pass.
      // Their output is kept and shown whole once the long pass ends, so no two outputs interleave.
      const [first, ...beside] = step as [Pass, ...Pass[]];
      process.stdout.write(
        `\n━━━ side by side: ${first.name}, and beside it one after another ${beside.map((p) => p.name).join(', ')} (shown after ${first.name}) ━━━\n`,
      );
      process.stdout.write(`\n━━━ ${header(first)} ━━━\n    ${first.about}\n\n`);
      const shown = new Map<Pass, string>();
      const t0 = Date.now();
      await Promise.all([
        runPass(first, true).then(({ ok, output }) => {
          const seconds = Math.round((Date.now() - t0) / 1000);
          results.push({ name: first.name, ok, seconds, output });
          process.stdout.write(footer(first, ok, seconds));
        }),
        (async () => {
          for (const pass of beside) {
            const started = Date.now();
            const { ok, output } = await runPass(pass, false);
            const seconds = Math.round((Date.now() - started) / 1000);
            results.push({ name: pass.name, ok, seconds, output });
            shown.set(pass, `\n━━━ ${header(pass)} ━━━\n    ${pass.about}\n\n${output}${footer(pass, ok, seconds)}`);
          }
        })(),
      ]);
      process.stdout.write(beside.map((pass) => shown.get(pass)).join(''));
    } else {
      process.stdout.write(`\n━━━ side by side: ${step.map((p) => p.name).join(', ')} (each shown when it ends) ━━━\n`);
      await Promise.all(
        step.map(async (pass) => {
          const t0 = Date.now();
          const { ok, output } = await runPass(pass, false);
          const seconds = Math.round((Date.now() - t0) / 1000);
          results.push({ name: pass.name, ok, seconds, output });
          process.stdout.write(`\n━━━ ${header(pass)} ━━━\n    ${pass.about}\n\n${output}${footer(pass, ok, seconds)}`);
        }),
      );
    }
    index += step.length;
    if (bail && results.some((r) => !r.ok)) break;
  }
  return { results, index };
}

const started = Date.now();
runAll().then(({ results, index }) => {
  const total = (Date.now() - started) / 1000;
  const failed = results.filter((r) => !r.ok).map((r) => r.name);
  const skipped = selected.slice(index).map((p) => p.name);
  // Recorded for the next run's estimate: passed passes only (a failure's time says little).
  mkdirSync(join(root, 'artifacts'), { recursive: true });
  writeFileSync(
    timesFile,
    `${JSON.stringify({ ...recorded, ...Object.fromEntries(results.filter((r) => r.ok).map((r) => [r.name, r.seconds])) }, null, 2)}\n`,
  );
  process.stdout.write(
    `\n${selected
      .filter((p) => results.some((r) => r.name === p.name))
      .map((p) => results.find((r) => r.name === p.name)!)
      .map((r) => `  ${r.ok ? 'ok  ' : 'FAIL'} ${r.name} (${r.seconds} s)`)
      .join('\n')}\n`,
  );
  // A failed test's name is far above by now (the system suite streams, the passes beside it print
  // after it): say again what each failed pass printed about its failure, next to the verdict.
  for (const result of results.filter((r) => !r.ok))
    process.stdout.write(
      `\nwhat failed in ${result.name}:\n${(result.output === undefined ? ['   (its output is above)'] : failureDigest(result.output)).join('\n')}\n`,
    );
  process.stdout.write(
    failed.length === 0
      ? `npm test: ${selected.length} passes, all passed (${clock(total)}; expected ${clock(expected)})\n`
      : `npm test: ${selected.length} passes, ${failed.length} failed: ${failed.join(', ')}${skipped.length ? `; not run: ${skipped.join(', ')}` : ''} (${clock(total)})\n`,
  );
  if (interrupted) process.stdout.write(`npm test: interrupted (${interrupted})\n`);
  process.exit(interrupted ? 130 : failed.length === 0 ? 0 : 1);
});
