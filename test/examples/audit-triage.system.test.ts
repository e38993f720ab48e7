import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';

const run = promisify(execFile);

// Each severity's heading counts its issues; what follows must account for all of them: the first
// five, then how many more (it printed "WARNING (7)" and listed five, the other two unmentioned).
test('examples/audit-triage.ts: every severity lists or counts each of its issues', async () => {
  const env = { ...process.env, SEO_VISIBILITY_API_KEY: '', SEO_VISIBILITY_BASE_URL: '' };
  const { stdout } = await run(
    process.execPath,
    ['--import', 'tsx', 'examples/run-with-simulator.ts', 'examples/audit-triage.ts'],
    { env, timeout: 60_000 },
  );
  const groups = stdout.split(/\n(?=[A-Z]+ \(\d+\)\n)/).slice(1);
  expect(groups.length).toBeGreaterThan(0);
  expect(
    groups.some((g) => Number(/^\w+ \((\d+)\)/.exec(g)?.[1]) > 5),
    'the simulator has a severity with more than five issues',
  ).toBe(true);
  for (const group of groups) {
    const [heading = '', ...lines] = group.trim().split('\n');
    const total = Number(/^\w+ \((\d+)\)$/.exec(heading)?.[1]);
    const listed = lines.filter((l) => /^\s+\d+ pages {2}/.test(l)).length;
    const more = Number(/^\s+… and (\d+) more$/m.exec(group)?.[1] ?? 0);
    expect({ heading, accounted: listed + more }).toEqual({ heading, accounted: total });
  }
});
