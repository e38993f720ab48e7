import { describe, expect, it } from 'vitest';
import { main } from '../../src/testing/cli.js';

describe('seo-visibility-simulator CLI', () => {
  it('starts the HTTP form on loopback and prints the base URL and both keys', async () => {
    const lines: string[] = [];
    const stop = await main(['--port', '0', '--seed', '2', '--tick', '0'], (line) => lines.push(line));
    try {
      const url = lines.find((l) => l.startsWith('SEO_VISIBILITY_BASE_URL='))!.split('=')[1]!;
      const key = lines
        .find((l) => l.startsWith('Read + Write key:'))!
        .split(':')[1]!
        .trim();
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
      expect(lines.some((l) => l.startsWith('Read Only key:'))).toBe(true);
      const res = await fetch(`${url}/projects`, { headers: { authorization: `Bearer ${key}` } });
      expect(res.status).toBe(200);
      expect((await res.json()).data).toHaveLength(4);
    } finally {
      await stop();
    }
  });

  it('--speedup runs the rate windows faster and prints them, for a client in another language to pace on', async () => {
    const lines: string[] = [];
    const stop = await main(['--port', '0', '--tick', '0', '--speedup', '60'], (line) => lines.push(line));
    try {
      expect(lines).toContain('Rate windows per key: 200/1000 ms, 5000/60000 ms, 50000/1440000 ms');
    } finally {
      await stop();
    }
    await expect(main(['--port', '0', '--speedup', 'fast'], () => {})).rejects.toThrow(
      /Invalid speedup: expected a number from 1 to 3,600/,
    );
  });

  it('rejects a bad number with the usage text', async () => {
    await expect(main(['--port', 'abc'], () => {})).rejects.toThrow(/--port must be a non-negative integer/);
  });
});
