/**
 * Issue 22's fresh adversarial run against the merged fixes (the "attack" slice): each row is one
 * defect the run found in code that passed its tests, tried again as a user would meet it.
 */
import { describe, test } from 'vitest';
import { SeoVisibilityClient } from '../../src/index.js';
import { createSimulator } from '../../src/testing/index.js';
import { settle } from './support/outcome.js';
import { useReport } from './support/report.js';

const report = useReport('attack');

describe('secrets: the key masking', () => {
  test('a key short enough to occur in response text is refused, not masked into every response', async () => {
    const keys = ['e', 'id', 'test'];
    const outcomes: string[] = [];
    let sent = 0;
    for (const key of keys) {
      const sim = createSimulator({ seed: 22, keys: { readOnly: key } });
      const outcome = await settle((async () => new SeoVisibilityClient({ apiKey: key, baseUrl: sim.baseUrl, fetch: sim.fetch }).projects.list())());
      outcomes.push(outcome.error === undefined ? 'answered' : (outcome.error as Error).name);
      sent += sim.requests.length;
    }
    report.check({
      area: 'Secrets: the key masking',
      input: "apiKey 'e', 'id' or 'test' (a placeholder that occurs in every response's text)",
      cases: keys.length,
      expected: 'InvalidArgumentError, InvalidArgumentError, InvalidArgumentError',
      observed: outcomes.join(', '),
      expectedServer: '0 requests',
      serverSaw: `${sent} requests`,
    });
  });
});
