/**
 * `fleet.enqueueEvent` stays inside what the account copies: an event for a project or datasets
 * the account's job leaves out queues nothing (its read would copy what the account chose not to,
 * on its budget). Decided before the queue is opened, so no database is needed here.
 */
import { describe, expect, it } from 'vitest';
import { createFleet } from '../../src/fleet/index.js';
import type { WebhookEvent } from '../../src/index.js';

const listed = '11111111-1111-4111-8111-111111111111';
const other = '22222222-2222-4222-8222-222222222222';
// Nothing listens on port 1: a test that reaches the queue fails on the connection.
const postgres = 'postgres://nobody@127.0.0.1:1/none';
const keywords = (projectId: string): WebhookEvent => ({
  event: 'keywords.updated',
  timestamp: '2026-06-10T00:00:00Z',
  project_id: projectId,
  data: { keywords_updated: 3, job_id: 'j1' },
});
const audit = (projectId: string): WebhookEvent => ({
  event: 'audit.completed',
  timestamp: '2026-06-10T00:00:00Z',
  project_id: projectId,
  data: { audit_id: 'a1', target_url: 'https://example.com/', pages_crawled: 4 },
});

describe('fleet.enqueueEvent: only what the account copies', () => {
  it("a project outside the account's project list queues nothing", async () => {
    const fleet = createFleet({ postgres, accounts: { acme: { apiKey: 'sv_live_abc', job: { projects: [listed] } } } });
    try {
      await expect(fleet.enqueueEvent('acme', keywords(other))).resolves.toEqual({ queued: false, datasets: [] });
    } finally {
      await fleet.close();
    }
  });

  it('datasets the account does not copy are not read; none left, nothing queued', async () => {
    const fleet = createFleet({
      postgres,
      accounts: { acme: { apiKey: 'sv_live_abc', job: { projects: 'all', datasets: ['rankings.list'] } } },
    });
    try {
      await expect(fleet.enqueueEvent('acme', audit(listed))).resolves.toEqual({ queued: false, datasets: [] });
    } finally {
      await fleet.close();
    }
  });

  it('accounts given as a function are asked for their job too', async () => {
    const fleet = createFleet({
      postgres,
      accounts: async (id) =>
        id === 'acme' ? { apiKey: 'sv_live_abc', job: { projects: [listed], datasets: ['content.list'] } } : undefined,
    });
    try {
      await expect(fleet.enqueueEvent('acme', keywords(listed))).resolves.toEqual({ queued: false, datasets: [] });
      await expect(fleet.enqueueEvent('acme', keywords(other))).resolves.toEqual({ queued: false, datasets: [] });
    } finally {
      await fleet.close();
    }
  });
});
