import { describe, expect, test, vi } from 'vitest';
import { importPeer, loadOnce } from '../../src/internal/optional-peers.js';

describe('loadOnce', () => {
  test('loads once and gives every caller the same result', async () => {
    const load = vi.fn(async () => ({ loaded: true }));
    const peers = loadOnce(load);
    const [a, b] = await Promise.all([peers(), peers()]);
    expect(await peers()).toBe(a);
    expect(b).toBe(a);
    expect(load).toHaveBeenCalledTimes(1);
  });

  test('forgets a failure, so a package installed later is found on the next call', async () => {
    const load = vi
      .fn<() => Promise<string>>()
      .mockRejectedValueOnce(new Error('not installed'))
      .mockResolvedValue('installed');
    const peers = loadOnce(load);
    await expect(peers()).rejects.toThrow('not installed');
    await expect(peers()).resolves.toBe('installed');
    expect(load).toHaveBeenCalledTimes(2);
  });
});

describe('importPeer', () => {
  test('returns the module the importer gives', async () => {
    const module = { Pool: class {} };
    await expect(
      importPeer(
        'pg',
        async () => module,
        () => new Error('unused'),
      ),
    ).resolves.toBe(module);
  });

  test("turns the runtime's error into the entry's own, naming the package, with the original as cause", async () => {
    const notFound = new Error("Cannot find package 'pg'");
    const failure = await importPeer(
      'pg',
      () => Promise.reject(notFound),
      (name, cause) => new Error(`install ${name}`, { cause }),
    ).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).toBe('install pg');
    expect((failure as Error).cause).toBe(notFound);
  });
});
