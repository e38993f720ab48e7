import { afterEach, describe, expect, it, vi } from 'vitest';

afterEach(() => {
  vi.doUnmock('pg-boss');
  vi.resetModules();
});

describe('loadFleetPeers', () => {
  it('without pg-boss installed, says what to install (and is tried again on the next call)', async () => {
    vi.resetModules();
    vi.doMock('pg-boss', () => {
      throw new Error("Cannot find package 'pg-boss'");
    });
    const { loadFleetPeers } = await import('../../src/fleet/peers.js');
    const { FleetError } = await import('../../src/fleet/errors.js');
    const failure = await loadFleetPeers().catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(FleetError);
    expect((failure as InstanceType<typeof FleetError>).code).toBe('missing_peer');
    expect((failure as Error).message).toBe(
      "seo-visibility/fleet needs the optional peer dependencies pg-boss and pg, and 'pg-boss' could not be loaded. Install both: npm install pg-boss pg",
    );
    vi.doUnmock('pg-boss');
    const peers = await loadFleetPeers();
    expect(typeof peers.PgBoss).toBe('function');
    expect(typeof peers.Pool).toBe('function');
  });
});
