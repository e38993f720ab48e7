import { describe, expect, it } from 'vitest';
import { NotFoundError, TimeoutError } from '../../src/index.js';
import { apiErrorCode, errorType, requestAttributes, spanName } from '../../src/otel/attributes.js';

// What a trace backend indexes must follow the conventions for any base URL a user configures.
describe('span attributes of an attempt', () => {
  const facts = {
    method: 'get',
    url: 'https://api.example.com/api/v1/projects?limit=2',
    template: '/projects',
    attempt: 1,
  };

  it('names the span {METHOD} {url.template}', () => {
    expect(spanName(facts)).toBe('GET /projects');
    expect(spanName({ method: 'BREW', template: '/pot' })).toBe('_OTHER /pot');
  });

  it("reports the scheme's default port when the URL names none, and the named port otherwise", () => {
    expect(requestAttributes(facts)).toMatchObject({ 'server.address': 'api.example.com', 'server.port': 443 });
    expect(requestAttributes({ ...facts, url: 'http://localhost:8080/api/v1/projects' })).toMatchObject({
      'server.address': 'localhost',
      'server.port': 8080,
    });
  });

  it('gives an IPv6 host without the brackets of URL syntax', () => {
    expect(requestAttributes({ ...facts, url: 'http://[::1]:3000/api/v1/projects' })['server.address']).toBe('::1');
  });

  it('drops credentials from url.full and keeps the query', () => {
    expect(
      requestAttributes({ ...facts, url: 'https://user:secret@api.example.com/api/v1/projects?limit=2' })['url.full'],
    ).toBe('https://api.example.com/api/v1/projects?limit=2');
  });

  it('sets http.request.resend_count on resends only', () => {
    expect(requestAttributes(facts)).not.toHaveProperty('http.request.resend_count');
    expect(requestAttributes({ ...facts, attempt: 3 })['http.request.resend_count']).toBe(2);
  });
});

describe('error.type', () => {
  const notFound = new NotFoundError({ status: 404, code: 'NOT_FOUND', message: 'No such project' });

  it('is the status code for an HTTP error status, the error class otherwise', () => {
    expect(errorType(404, notFound)).toBe('404');
    expect(errorType(200, undefined)).toBeUndefined();
    expect(errorType(undefined, new TimeoutError(5_000))).toBe('TimeoutError');
    expect(errorType(undefined, new Error('plain'))).toBe('_OTHER');
    expect(errorType(undefined, 'a string')).toBe('_OTHER');
  });

  it("carries the API's error code beside it", () => {
    expect(apiErrorCode(notFound)).toBe('NOT_FOUND');
    expect(apiErrorCode(new TimeoutError(5_000))).toBeUndefined();
  });
});
