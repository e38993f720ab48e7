import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fleetDb } from '../insights/fleet-store.js';
import { P, root } from '../insights/support.js';
import { bundleCli } from './support.js';

// `--account` through the command line, as a cron job and an agent's client run them (child
// processes): a fleet warehouse in a SQLite file (the fleet's account_id columns; the same fixture
// under acme and globex, globex's copy of the project renamed), read by the real store reader.
let dir: string;
let file: string;

beforeAll(async () => {
  bin = await bundleCli();
  dir = mkdtempSync(join(tmpdir(), 'sv-accounts-'));
  file = join(dir, 'fleet.db');
  const db = fleetDb(['acme', 'globex']);
  db.prepare("UPDATE projects_list SET name = 'Globex Shop' WHERE account_id = 'globex'").run();
  db.prepare('VACUUM INTO ?').run(file);
  db.close();
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** The CLI bundled once, run as the built bin is (through tsx each run is two Node processes). */
let bin: string;
const cli = (args: string[]) =>
  spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', cwd: root, timeout: 120_000 });

describe('report --account --alert', () => {
  it('alerts of one account, then of every account, each line naming its account', () => {
    const one = cli([
      'report',
      '--db',
      file,
      '--out',
      join(dir, 'globex.html'),
      '--account',
      'globex',
      '--alert',
      'new_critical>=1',
    ]);
    expect(one.status, one.stderr).toBe(3);
    expect(one.stdout).toContain(`ALERT new_critical>=1: 1 row(s)\n  project ${P}: 1 new critical (server_errors)\n`);
    const all = cli(['report', '--db', file, '--out', join(dir, 'all.html'), '--alert', 'new_critical>=1']);
    expect(all.status, all.stderr).toBe(3);
    expect(all.stdout).toContain(
      `ALERT new_critical>=1: 2 row(s)\n  project ${P}, account acme: 1 new critical (server_errors)\n  project ${P}, account globex: 1 new critical (server_errors)\n`,
    );
  });
});

describe('mcp --account', () => {
  it('an account the warehouse does not hold: exit 2 before serving, naming the accounts it holds', () => {
    const run = cli(['mcp', '--db', file, '--account', 'initech']);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('--account initech: the warehouse holds no such account; it holds acme, globex');
  });

  it("serves one account: a project name of that account answers with that account's rows only", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [bin, 'mcp', '--db', file, '--account', 'globex'],
      env: { PATH: process.env.PATH ?? '' },
      stderr: 'pipe',
      cwd: root,
    });
    const client = new Client({ name: 'mcp-accounts', version: '1.0.0' });
    await client.connect(transport);
    try {
      const result = await client.callTool({ name: 'rank_changes', arguments: { project: 'Globex Shop' } });
      const rows = JSON.parse((result.content as Array<{ text: string }>)[0]?.text ?? '').rows as Array<
        Record<string, unknown>
      >;
      expect(rows.length).toBeGreaterThan(0);
      expect(new Set(rows.map((r) => r['account_id']))).toEqual(new Set(['globex']));
      const other = await client.callTool({ name: 'rank_changes', arguments: { project: 'Fixture' } });
      expect(other.isError).toBe(true);
    } finally {
      await client.close();
    }
  }, 60_000);
});
