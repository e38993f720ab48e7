/**
 * Issue 23 §1, a fleet warehouse of many accounts (every row with its account_id): the report, its
 * alerts and the MCP tools never merge two accounts, even where one project id is in both, and
 * answer for one account when asked. Each row is one misreading tried again over SQLite with the
 * fleet's account_id columns, read in this process ("server saw" is what the warehouse held).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { describe, test } from 'vitest';
import { createMcpServer } from '../../src/insights/mcp-server.js';
import { storeTools } from '../../src/insights/mcp-tools.js';
import { backlinkChanges } from '../../src/insights/queries.js';
import { checkAlerts, parseAlert } from '../../src/insights/report-alerts.js';
import { gatherReport } from '../../src/insights/report-data.js';
import { reportHtml } from '../../src/insights/report-html.js';
import type { InsightSource } from '../../src/insights/source.js';
import { fleetDb, inProcessSource } from '../insights/fleet-store.js';
import { P } from '../insights/support.js';
import { useReport } from './support/report.js';

const report = useReport('account');
const LIMITS = { maxRows: 500, maxBytes: 50_000, timeoutMs: 5000 };
const TWO = 'accounts acme and globex, the same project id and rows in each';

function fleet(accounts: readonly string[], renamed: Record<string, string> = {}): InsightSource {
  const db = fleetDb(accounts);
  for (const [account, name] of Object.entries(renamed))
    db.prepare('UPDATE projects_list SET name = ? WHERE account_id = ?').run(name, account);
  return inProcessSource(db);
}

async function call(source: InsightSource, tool: string, args: Record<string, unknown>) {
  const server = await createMcpServer({
    tools: storeTools(source, LIMITS),
    redact: (t) => t,
    maxBytes: LIMITS.maxBytes,
  });
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'reliability-account', version: '1.0.0' });
  await client.connect(clientSide);
  try {
    const result = await client.callTool({ name: tool, arguments: args });
    return { isError: result.isError === true, text: (result.content as Array<{ text: string }>)[0]?.text ?? '' };
  } finally {
    await client.close();
  }
}

describe('MCP tools over a fleet warehouse', () => {
  test("a project named in one account reads that account's rows only, not another account's with the same id", async () => {
    const alone = JSON.parse((await call(fleet(['acme']), 'rank_changes', {})).text).rows.length;
    const reply = await call(fleet(['acme', 'globex'], { globex: 'Globex Shop' }), 'rank_changes', {
      project: 'Globex Shop',
    });
    const rows = JSON.parse(reply.text).rows as Array<Record<string, unknown>>;
    report.check({
      area: 'MCP: accounts of a fleet warehouse',
      input:
        'rank_changes { project: "Globex Shop" } (the name of globex\'s copy of a project acme also holds, same id)',
      cases: 1,
      expected: `${alone} rows, all of globex`,
      observed: `${rows.length} rows, ${rows.every((r) => r['account_id'] === 'globex') ? 'all of globex' : 'some of acme'}`,
      serverSaw: TWO,
    });
  });

  test('a project name in two accounts asks which account', async () => {
    const reply = await call(fleet(['acme', 'globex']), 'ai_visibility', { project: 'Fixture' });
    report.check({
      area: 'MCP: accounts of a fleet warehouse',
      input: 'ai_visibility { project: "Fixture" }, a name both accounts hold',
      cases: 1,
      expected: 'refused: pass account (one of acme, globex)',
      observed:
        reply.isError && reply.text.includes('pass account (one of acme, globex)')
          ? 'refused: pass account (one of acme, globex)'
          : `answered: ${reply.text.slice(0, 120)}`,
      serverSaw: TWO,
    });
  });
});

describe('report and alerts over a fleet warehouse', () => {
  test('new_critical counts each account apart and names it', async () => {
    const [alert] = await checkAlerts(fleet(['acme', 'globex']), [parseAlert('new_critical>=1')], { days: 7 });
    report.check({
      area: 'Report: accounts of a fleet warehouse',
      input: '--alert new_critical>=1 over every account (one new critical issue in each)',
      cases: 1,
      expected: `project ${P}, account acme: 1 new critical (server_errors) | project ${P}, account globex: 1 new critical (server_errors)`,
      observed: (alert?.lines ?? []).join(' | ') || 'no alert',
      serverSaw: TWO,
    });
  });

  test('--account reads that account only: one without data crosses no threshold', async () => {
    const db = fleetDb(['acme', 'initech']);
    for (const { name } of db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name <> 'projects_list'")
      .all())
      db.prepare(`DELETE FROM "${String(name)}" WHERE account_id = 'initech'`).run();
    const alerts = await checkAlerts(
      inProcessSource(db),
      ['rank_drop>=1', 'new_critical>=1', 'domains_lost>=1', 'visibility_drop>=0'].map(parseAlert),
      { days: 7, account: 'initech', allChanges: true },
    );
    report.check({
      area: 'Report: accounts of a fleet warehouse',
      input: '--account initech --alert rank_drop>=1 … (initech holds the project, acme its data)',
      cases: 4,
      expected: 'no alert',
      observed: alerts.map((a) => `${a.alert.metric}: ${a.lines.join('; ')}`).join(' | ') || 'no alert',
      serverSaw: 'accounts acme (the fixture) and initech (the project, no data)',
    });
  });

  test('a report over two accounts has a section per account, the same-named project under each', async () => {
    const html = reportHtml(
      await gatherReport(fleet(['acme', 'globex']), { days: 7 }),
      () => '<svg></svg>',
      new Date('2026-03-15T00:00:00Z'),
    );
    const sections = html
      .split('<section class="account">')
      .slice(1)
      .map((s) => `${/Account (\w+)<\/h2>/.exec(s)?.[1]}: ${(s.match(/<h3>([^<]*)<\/h3>/g) ?? []).join(', ')}`);
    report.check({
      area: 'Report: accounts of a fleet warehouse',
      input: 'report over every account, a project "Fixture" in acme and in globex',
      cases: 1,
      expected: 'acme: <h3>Fixture</h3> | globex: <h3>Fixture</h3>',
      observed: sections.join(' | ') || 'no account section',
      serverSaw: TWO,
    });
  });

  test("the backlink trend ends at each account's own latest day", async () => {
    const db = fleetDb(['acme', 'globex']);
    db.prepare(
      `INSERT INTO backlinks_history (account_id, project_id, check_date, new_referring_domains, lost_referring_domains, net_domains_change) VALUES ('globex', ?, '2026-04-08', 1, 0, 1)`,
    ).run(P);
    const { trend } = await backlinkChanges(inProcessSource(db), { days: 7 });
    report.check({
      area: 'Report: accounts of a fleet warehouse',
      input: 'backlink trend over 7 days; globex synced a month after acme (same project id)',
      cases: 1,
      expected: 'acme: 2026-03-07, 2026-03-08 | globex: 2026-04-08',
      observed: ['acme', 'globex']
        .map(
          (a) =>
            `${a}: ${
              trend
                .filter((r) => r['account_id'] === a)
                .map((r) => r['day'])
                .join(', ') || 'none'
            }`,
        )
        .join(' | '),
      serverSaw: 'acme as the fixture; globex the same plus a backlink day a month later',
    });
  });
});
