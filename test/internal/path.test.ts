import { describe, expect, test } from 'vitest';
import { route } from '../../src/internal/path.js';

describe('route', () => {
  test('returns the template and the path with every value percent-encoded', () => {
    expect(route('/projects/{projectId}/reports/{reportId}', { projectId: 'p1', reportId: 'q3/review ü' })).toEqual({
      template: '/projects/{projectId}/reports/{reportId}',
      path: '/projects/p1/reports/q3%2Freview%20%C3%BC',
    });
  });

  test('a value can never add a segment or climb out', () => {
    expect(route('/webhooks/{webhookId}', { webhookId: '../projects' }).path).toBe('/webhooks/..%2Fprojects');
    expect(route('/webhooks/{webhookId}', { webhookId: '?a=1#b' }).path).toBe('/webhooks/%3Fa%3D1%23b');
  });

  test('a route without placeholders is its own path', () => {
    expect(route('/webhooks')).toEqual({ template: '/webhooks', path: '/webhooks' });
  });

  test('a placeholder without a value throws', () => {
    expect(() => route('/projects/{projectId}/audits/{auditId}', { projectId: 'p1' })).toThrow('{auditId}');
    expect(() => route('/projects/{toString}', {})).toThrow('{toString}');
  });
});
