import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

// `npm test`'s last pass, run on a throwaway git checkout holding scripts/test-all.ts: the tree
// must be the committed tree, whoever changed it (a pass, or `npm install` before `npm test`).
const root = join(import.meta.dirname, '..', '..');
const tsx = join(root, 'node_modules', '.bin', 'tsx');
let checkout: string | undefined;

function git(cwd: string, ...args: string[]): void {
  const run = spawnSync('git', ['-c', 'user.name=test', '-c', 'user.email=test@example.test', ...args], {
    cwd,
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`git ${args.join(' ')}: ${run.stderr}`);
}

/** A committed checkout with the script, a lockfile and a .gitignore'd folder. */
function committedCheckout(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sv-tree-'));
  mkdirSync(join(dir, 'scripts'));
  for (const file of ['test-all.ts', 'tree-state.ts', 'failure-digest.ts'])
    copyFileSync(join(root, 'scripts', file), join(dir, 'scripts', file));
  writeFileSync(join(dir, 'package-lock.json'), '{ "lockfileVersion": 3 }\n');
  writeFileSync(join(dir, '.gitignore'), 'artifacts/\n');
  git(dir, 'init', '-q');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'committed tree');
  return dir;
}

const treePass = (dir: string) =>
  spawnSync(tsx, [join(dir, 'scripts', 'test-all.ts'), '--only', 'tree unchanged'], { cwd: dir, encoding: 'utf8' });

afterEach(() => {
  if (checkout) rmSync(checkout, { recursive: true, force: true });
  checkout = undefined;
});

describe("npm test's 'tree unchanged' pass", () => {
  it('passes on the committed tree, gitignored output aside', () => {
    checkout = committedCheckout();
    mkdirSync(join(checkout, 'artifacts'));
    writeFileSync(join(checkout, 'artifacts', 'report.json'), '{}');
    const run = treePass(checkout);
    expect(run.stdout).toContain('1 passes, all passed');
    expect(run.status).toBe(0);
  });

  it("says how long it expects to take before it starts: an estimate at first, then the last run's recorded times", () => {
    checkout = committedCheckout();
    const first = treePass(checkout);
    expect(first.stdout.split('\n')[0]).toMatch(
      /^npm test: 1 passes, expected to take about 0 min 1 s \(estimates for a 2-core machine\)$/,
    );
    const recorded = JSON.parse(readFileSync(join(checkout, 'artifacts', 'test-times.json'), 'utf8')) as Record<
      string,
      number
    >;
    expect(Object.keys(recorded)).toEqual(['tree unchanged']);
    writeFileSync(join(checkout, 'artifacts', 'test-times.json'), JSON.stringify({ 'tree unchanged': 125 }));
    const second = treePass(checkout);
    expect(second.stdout.split('\n')[0]).toBe(
      'npm test: 1 passes, expected to take about 2 min 5 s (the last run on this machine, artifacts/test-times.json)',
    );
    expect(second.status).toBe(0);
  });

  it('fails on a tracked file changed before npm test began (a lockfile npm install rewrote), naming it', () => {
    checkout = committedCheckout();
    writeFileSync(join(checkout, 'package-lock.json'), '{ "lockfileVersion": 3, "packages": {} }\n');
    const run = treePass(checkout);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(' M package-lock.json (already so before npm test began');
  });

  // `npm test -- --only` with its value forgotten ran every pass (ten minutes) instead of saying so.
  it('refuses `--only` without pass names, naming the passes, and runs none', () => {
    checkout = committedCheckout();
    for (const args of [['--only'], ['--only', '--bail'], ['--only=']]) {
      const run = spawnSync(tsx, [join(checkout, 'scripts', 'test-all.ts'), ...args], {
        cwd: checkout,
        encoding: 'utf8',
      });
      expect({ args, status: run.status, stdout: run.stdout }).toEqual({ args, status: 2, stdout: '' });
      expect(run.stderr).toContain('--only takes pass names');
      for (const pass of ['system packages', 'unit', 'packed tarball', 'tree unchanged'])
        expect(run.stderr).toContain(pass);
    }
  });

  // CI keeps a log's tail: the system suite's failed test scrolled hundreds of lines above the
  // summary (the passes beside it print after it), and the tail said `FAIL system` and no more.
  it("repeats a failed pass's failed tests beside the verdict, so a log's tail names them", () => {
    checkout = committedCheckout();
    const fails = "console.log(' FAIL  t.system.test.ts > a test'); console.log('Error: boom'); process.exit(1)";
    writeFileSync(join(checkout, 'package.json'), JSON.stringify({ scripts: { lint: `node -e "${fails}"` } }));
    git(checkout, 'add', '-A');
    git(checkout, 'commit', '-qm', 'a failing lint');
    const run = spawnSync(tsx, [join(checkout, 'scripts', 'test-all.ts'), '--only', 'lint'], {
      cwd: checkout,
      encoding: 'utf8',
    });
    expect(run.status).toBe(1);
    expect(run.stdout.trimEnd().split('\n').slice(-4)).toEqual([
      'what failed in lint:',
      ' FAIL  t.system.test.ts > a test',
      '       Error: boom',
      expect.stringMatching(/^npm test: 1 passes, 1 failed: lint \(0 min \d+ s\)$/),
    ]);
  });

  // A pass that never ends held `npm test` until CI's own limit killed the run, naming nothing.
  it('stops a pass past its limit, with the processes it started, and fails it saying so', () => {
    checkout = committedCheckout();
    const pidFile = join(checkout, 'artifacts', 'grandchild.pid');
    const grandchild = `require('fs').writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); setInterval(() => {}, 1000)`;
    const hangs = `require('child_process').spawn(process.execPath, ['-e', ${JSON.stringify(grandchild)}], { stdio: 'inherit' }); setInterval(() => {}, 1000)`;
    mkdirSync(join(checkout, 'artifacts'));
    writeFileSync(join(checkout, 'hangs.js'), hangs);
    writeFileSync(join(checkout, 'package.json'), JSON.stringify({ scripts: { lint: 'node hangs.js' } }));
    git(checkout, 'add', '-A');
    git(checkout, 'commit', '-qm', 'a lint that never ends');
    const run = spawnSync(tsx, [join(checkout, 'scripts', 'test-all.ts'), '--only', 'lint'], {
      cwd: checkout,
      encoding: 'utf8',
      env: { ...process.env, NPM_TEST_PASS_LIMIT: '3' },
      timeout: 30_000,
    });
    expect(run.status).toBe(1);
    expect(run.stdout).toContain(
      'what failed in lint:\n   npm test: lint stopped after its limit of 3 s, with every process it started',
    );
    // Gone, or dead and not yet reaped (a zombie: this container's init may reap late).
    const pid = Number(readFileSync(pidFile, 'utf8'));
    const state = existsSync(`/proc/${pid}/stat`)
      ? readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0]
      : 'gone';
    expect(['gone', 'Z', 'X'], 'the grandchild must be gone').toContain(state);
  });

  // Each pass runs in a process group of its own, so a terminal's Ctrl-C reaches test-all alone: it
  // must pass it on (Vitest's teardown then stops its servers and removes their folders) rather
  // than kill the passes outright, which left the test servers' folders behind.
  it('passes Ctrl-C on to a running pass and its children, which end as they would have; the run ends 130', async () => {
    checkout = committedCheckout();
    const dir = join(checkout, 'artifacts');
    mkdirSync(dir);
    // Each says it is ready once its handler is in place: a SIGINT sent before that (a child still
    // starting on a loaded machine) would end it by default, and the test would fail for no fault.
    const child = `process.on('SIGINT', () => { require('fs').writeFileSync(${JSON.stringify(join(dir, 'child-stopped'))}, 'yes'); process.exit(0); });
require('fs').writeFileSync(${JSON.stringify(join(dir, 'child-ready'))}, 'yes'); setInterval(() => {}, 1000)`;
    const pass = `require('child_process').spawn(process.execPath, ['-e', ${JSON.stringify(child)}], { stdio: 'inherit' });
process.on('SIGINT', () => { require('fs').writeFileSync(${JSON.stringify(join(dir, 'pass-stopped'))}, 'yes'); setTimeout(() => process.exit(1), 200); });
require('fs').writeFileSync(${JSON.stringify(join(dir, 'started'))}, 'yes'); setInterval(() => {}, 1000)`;
    writeFileSync(join(checkout, 'traps.js'), pass);
    writeFileSync(join(checkout, 'package.json'), JSON.stringify({ scripts: { lint: 'node traps.js' } }));
    git(checkout, 'add', '-A');
    git(checkout, 'commit', '-qm', 'a lint that traps Ctrl-C');
    const run = spawn(tsx, [join(checkout, 'scripts', 'test-all.ts'), '--only', 'lint'], { cwd: checkout });
    const ended = new Promise<number | null>((resolve) => run.on('exit', (code) => resolve(code)));
    try {
      const ready = () => existsSync(join(dir, 'started')) && existsSync(join(dir, 'child-ready'));
      for (let i = 0; i < 300 && !ready(); i++) await new Promise((r) => setTimeout(r, 100));
      expect(ready(), 'the pass and its child started within 30 s').toBe(true);
      // tsx runs the script in a child of its own and passes signals on to it.
      run.kill('SIGINT');
      const code = await Promise.race([ended, new Promise<'late'>((r) => setTimeout(() => r('late'), 20_000))]);
      expect(code).toBe(130);
      expect(existsSync(join(dir, 'pass-stopped')), 'the pass ran its own SIGINT handler').toBe(true);
      expect(existsSync(join(dir, 'child-stopped')), "the pass's child ran its own SIGINT handler").toBe(true);
    } finally {
      run.kill('SIGKILL');
    }
  }, 60_000);

  it('fails on an untracked file, naming it', () => {
    checkout = committedCheckout();
    writeFileSync(join(checkout, 'demo.db'), 'x');
    const run = treePass(checkout);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('?? demo.db');
  });
});
