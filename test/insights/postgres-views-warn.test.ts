import { expect, it } from 'vitest';
import { createPostgresInsightViews } from '../../src/insights/create-views.js';

// The views are made after the copy's transaction: whatever goes wrong with them (a connection
// dropped after COMMIT, a catalog the role may not read) must not turn a committed page into an
// error the sync reports as "nothing was written". The view is left as it was, with a warning.
it('a failure while reading the catalog for the views is a warning, not an error', async () => {
  const warnings: string[] = [];
  const client = {
    query: async () => Promise.reject(Object.assign(new Error('Connection terminated unexpectedly'), {})),
  };
  await expect(
    createPostgresInsightViews(client, 'seo_visibility', { warn: (m) => warnings.push(m) }),
  ).resolves.toBeUndefined();
  expect(warnings).toEqual([
    expect.stringMatching(/insight views of seo_visibility were left as they were.*Connection terminated unexpectedly/),
  ]);
});
