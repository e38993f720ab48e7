import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';

const run = promisify(execFile);

// Every example runs against the built-in simulator, so examples can never rot (issue 3).
const examples = readdirSync('examples').filter((name) => name.endsWith('.ts') && name !== 'run-with-simulator.ts');

const expected: Record<string, RegExp> = {
  'quick-start.ts':
    /Top movers[\s\S]*AI visibility per model[\s\S]*Latest audit[\s\S]*Backlinks[\s\S]*Upcoming content/,
  'export-keywords-csv.ts': /^id,keyword,location,desktop_position/m,
  'audit-triage.ts': /open issues over \d+ pages/,
  'prompt-visibility-report.ts': /visible in \d+% of checks/,
  'webhook-receiver.ts': /event webhook\.test/,
};

describe('examples', () => {
  test('every example has an expectation', () => {
    expect(examples.sort()).toEqual(Object.keys(expected).sort());
  });

  // A reader without a key runs what the header says: it must name the simulator wrapper.
  test.each(examples)('%s says in its header how to run it without a key', (name) => {
    const header = /^\/\*\*[\s\S]*?\*\//.exec(readFileSync(`examples/${name}`, 'utf8'))?.[0] ?? '';
    expect(header).toMatch(
      name === 'quick-start.ts'
        ? /npm run demo:quick-start\b/
        : new RegExp(`npm run (--silent )?example examples/${name.replace('.', '\\.')}`),
    );
    expect(header).toContain('SEO_VISIBILITY_API_KEY');
  });

  test('npm run example and npm run demo:quick-start are the simulator wrapper; npm run demo is the sync on the simulator', () => {
    const { scripts } = JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> };
    expect(scripts.example).toBe('tsx examples/run-with-simulator.ts');
    expect(scripts['demo:quick-start']).toBe('tsx examples/run-with-simulator.ts examples/quick-start.ts');
    expect(scripts.demo).toMatch(/src\/cli\/index\.ts sync --simulator /);
  });

  test.each(examples)('%s runs against the simulator and exits 0', async (name) => {
    const env = { ...process.env, SEO_VISIBILITY_API_KEY: '', SEO_VISIBILITY_BASE_URL: '' };
    const { stdout } = await run(
      process.execPath,
      ['--import', 'tsx', 'examples/run-with-simulator.ts', `examples/${name}`],
      { env, timeout: 60_000 },
    );
    expect(stdout).toMatch(expected[name]!);
  });
});
