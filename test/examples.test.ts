import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';

const run = promisify(execFile);

// Every example runs against the built-in simulator, so examples can never rot (issue 3).
const examples = readdirSync('examples').filter((name) => name.endsWith('.ts') && name !== 'run-with-simulator.ts');

const expected: Record<string, RegExp> = {
  'quick-start.ts': /Top movers[\s\S]*AI visibility per model[\s\S]*Latest audit[\s\S]*Backlinks[\s\S]*Upcoming content/,
  'export-keywords-csv.ts': /^id,keyword,location,desktop_position/m,
  'audit-triage.ts': /open issues over \d+ pages/,
  'prompt-visibility-report.ts': /visible in \d+% of checks/,
  'webhook-receiver.ts': /event webhook\.test/,
};

describe('examples', () => {
  test('every example has an expectation', () => {
    expect(examples.sort()).toEqual(Object.keys(expected).sort());
  });

  test.each(examples)('%s runs against the simulator and exits 0', async (name) => {
    const env = { ...process.env, SEO_VISIBILITY_API_KEY: '', SEO_VISIBILITY_BASE_URL: '' };
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'examples/run-with-simulator.ts', `examples/${name}`], { env, timeout: 60_000 });
    expect(stdout).toMatch(expected[name]!);
  });
});
