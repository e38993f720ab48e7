import { describe, expect, it } from 'vitest';
import { InsightError, loadPeer, redactUrl } from '../../src/insights/errors.js';
import { openPostgresSource } from '../../src/insights/postgres-source.js';
import { freePort } from '../helpers/free-port.js';

describe('insight errors', () => {
  it('a missing optional package says what to install', async () => {
    const failure = await loadPeer('echarts-that-is-not-installed', 'seo-visibility report (its charts)').catch(
      (e: unknown) => e,
    );
    expect(failure).toBeInstanceOf(InsightError);
    expect((failure as InsightError).code).toBe('missing_peer');
    expect((failure as Error).message).toBe(
      'seo-visibility report (its charts) needs the optional package "echarts-that-is-not-installed": npm install echarts-that-is-not-installed',
    );
  });

  it('a Postgres password never reaches a message', async () => {
    expect(redactUrl('postgres://reader:s3cret@db.example:5432/seo')).toBe('postgres://reader:***@db.example:5432/seo');
    expect(redactUrl('postgres://reader@db.example/seo')).toBe('postgres://reader@db.example/seo');
    const port = await freePort();
    const failure = await openPostgresSource(`postgres://reader:s3cret@127.0.0.1:${port}/seo`, 'seo_visibility').catch(
      (e: unknown) => e,
    );
    expect((failure as InsightError).code).toBe('connect');
    expect((failure as Error).message).toMatch(
      new RegExp(
        `Cannot connect to PostgreSQL at postgres://reader:\\*\\*\\*@127\\.0\\.0\\.1:${port}/seo \\(schema seo_visibility\\): ECONNREFUSED`,
      ),
    );
    expect((failure as Error).message).not.toContain('s3cret');
  });
});
