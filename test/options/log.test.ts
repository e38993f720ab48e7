import { afterEach, describe, expect, test, vi } from 'vitest';
import { InvalidArgumentError, SeoVisibilityClient } from '../../src/index.js';
import { resolveLogger } from '../../src/options/log.js';
import { createSimulator } from '../../src/testing/index.js';

const recorder = () => {
  const lines: string[] = [];
  const at = (level: string) => (message: string) => void lines.push(`${level} ${message}`);
  return { lines, logger: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') } };
};

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

describe('resolveLogger', () => {
  test('no level and no logger: silent (no logger at all, so nothing is even formatted)', () => {
    expect(resolveLogger(undefined, undefined, undefined)).toBeUndefined();
  });

  test('a logger without a level receives every line; its own level decides', () => {
    const { lines, logger } = recorder();
    const log = resolveLogger(logger, undefined, undefined)!;
    log.debug('a');
    log.error('b');
    expect(lines).toEqual(['debug a', 'error b']);
  });

  test('a level filters: below it, nothing reaches the logger', () => {
    const { lines, logger } = recorder();
    const log = resolveLogger(logger, 'warn', undefined)!;
    log.debug('a');
    log.info('b');
    log.warn('c');
    log.error('d');
    expect(lines).toEqual(['warn c', 'error d']);
  });

  test("'off' turns logging off even with a logger", () => {
    expect(resolveLogger(recorder().logger, 'off', undefined)).toBeUndefined();
  });

  test('a level without a logger logs to the console', () => {
    const debug = vi.spyOn(console, 'debug').mockImplementation(() => {});
    resolveLogger(undefined, 'debug', undefined)!.debug('seo-visibility: GET /projects', { status: 200 });
    expect(debug).toHaveBeenCalledWith('seo-visibility: GET /projects', { status: 200 });
  });

  test('SEO_VISIBILITY_LOG sets the level; the option wins over it', () => {
    const { lines, logger } = recorder();
    resolveLogger(logger, undefined, 'error')!.warn('hidden');
    resolveLogger(logger, 'warn', 'error')!.warn('shown');
    expect(lines).toEqual(['warn shown']);
  });

  test('an unknown SEO_VISIBILITY_LOG value is refused, naming the variable', () => {
    expect(() => resolveLogger(undefined, undefined, 'verbose')).toThrow(InvalidArgumentError);
    expect(() => resolveLogger(undefined, undefined, 'verbose')).toThrow(/SEO_VISIBILITY_LOG: expected one of 'debug'/);
  });

  test('a logger without info or error (debug and warn only) gets those lines at warn', () => {
    const lines: string[] = [];
    const log = resolveLogger({ debug: () => {}, warn: (m: string) => void lines.push(m) }, 'debug', undefined)!;
    log.info('retrying');
    log.error('failed');
    expect(lines).toEqual(['retrying', 'failed']);
  });
});

describe('the client reads SEO_VISIBILITY_LOG', () => {
  test('SEO_VISIBILITY_LOG=debug logs each request to the console, without the key', async () => {
    vi.stubEnv('SEO_VISIBILITY_LOG', 'debug');
    const lines: unknown[][] = [];
    vi.spyOn(console, 'debug').mockImplementation((...args: unknown[]) => void lines.push(args));
    const sim = createSimulator({ seed: 3 });
    await new SeoVisibilityClient({
      apiKey: sim.keys.readWrite,
      baseUrl: sim.baseUrl,
      fetch: sim.fetch,
    }).projects.list();
    expect(lines.length).toBeGreaterThan(0);
    expect(JSON.stringify(lines)).not.toContain(sim.keys.readWrite);
  });

  test('an unknown SEO_VISIBILITY_LOG fails the constructor', () => {
    vi.stubEnv('SEO_VISIBILITY_LOG', 'loud');
    expect(() => new SeoVisibilityClient({ apiKey: 'sv_live_x', baseUrl: 'https://a.example.com/api/v1' })).toThrow(
      /SEO_VISIBILITY_LOG/,
    );
  });
});

test('a logger that throws is ignored, at every level (issue 16)', () => {
  const boom = () => {
    throw new Error('logger down');
  };
  const logger = resolveLogger({ debug: boom, warn: boom, info: boom, error: boom }, 'debug', undefined)!;
  for (const level of ['debug', 'info', 'warn', 'error'] as const)
    expect(() => logger[level]('line', { a: 1 })).not.toThrow();
});
