import { describe, expect, it } from 'vitest';
import { gatherReport } from '../../src/insights/report-data.js';
import { reportHtml } from '../../src/insights/report-html.js';
import { fleetDb, inProcessSource } from './fleet-store.js';

// Issue 23 §1: the report says whose account it is, and a report over several accounts of a fleet
// warehouse has a section per account, so the same project (same name, same id) in two accounts is
// shown apart. An account id is the user's configuration, not the API's, but is escaped all the same.
/** Charts are not what these tests read: a placeholder keeps ECharts out of the unit loop. */
const render = () => '<svg></svg>';
const AT = new Date('2026-03-15T00:00:00Z');
const htmlOf = async (accounts: readonly string[], account?: string) =>
  reportHtml(await gatherReport(inProcessSource(fleetDb(accounts)), { days: 7, account }), render, AT);
/** The words a reader sees: tags become spaces (a <bdi> around inline text, nothing), spaces collapse. */
const text = (h: string) =>
  h
    .replace(/<\/?bdi>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ');

describe('whose account the report is', () => {
  it('--account: the title, heading and summary name the account', async () => {
    const html = await htmlOf(['acme', 'globex'], 'globex');
    expect(html).toContain('<title>SEO and AI visibility: what changed (account globex)</title>');
    expect(text(html.split('<section')[0] ?? '')).toMatch(
      /what changed \(account globex\) Account globex: 1 project\(s\), generated 2026-03-15 00:00 UTC/,
    );
    expect(html).not.toContain('acme');
  });

  it('every account: a section per account, each with its own project, the same name and id shown apart', async () => {
    const html = await htmlOf(['acme', 'globex']);
    expect(text(html.split('<section')[0] ?? '')).toContain(
      '2 accounts (acme, globex), each in its own section: 2 project(s)',
    );
    const accounts = html.split('<section class="account">').slice(1);
    expect(accounts.map((a) => /<h2 class="account">Account (\w+)<\/h2>/.exec(a)?.[1])).toEqual(['acme', 'globex']);
    for (const a of accounts) {
      // One project section each, its heading under the account's (h3), its sub-headings h4.
      expect(a.match(/<section>/g)).toHaveLength(1);
      expect(a).toContain('<h3>Fixture</h3>');
      expect(a).toContain('<h4>Biggest movers (desktop)</h4>');
      expect(text(a)).toContain('1 keyword improved and 1 declined on desktop');
    }
  });

  it('a store of one account keeps one section per project under the report heading', async () => {
    const html = await htmlOf(['acme']);
    expect(html.match(/<section>/g)).toHaveLength(1);
    expect(html).toContain('<h2>Fixture</h2>');
    expect(text(html)).toContain('Account acme: 1 project(s)');
  });

  it('a warehouse of many accounts: the summary names the first ten and counts the rest', async () => {
    const accounts = Array.from({ length: 12 }, (_, i) => `a${String(i).padStart(2, '0')}`);
    const html = await htmlOf(accounts);
    expect(text(html.split('<section')[0] ?? '')).toContain(
      '12 accounts (a00, a01, a02, a03, a04, a05, a06, a07, a08, a09 and 2 more), each in its own section: 12 project(s)',
    );
    expect(html.match(/<h2 class="account">/g)).toHaveLength(12);
  });

  it('a hostile account id is text, not markup', async () => {
    const hostile = '<script>alert(1)</script>"\'&';
    const html = await htmlOf([hostile, 'globex']);
    expect(html).not.toContain('<script>');
    expect(html).toContain('Account &#60;script&#62;alert(1)&#60;/script&#62;&#34;&#39;&#38;</h2>');
    expect(text(html)).toContain('(&#60;script&#62;alert(1)&#60;/script&#62;&#34;&#39;&#38;, globex)');
  });
});
