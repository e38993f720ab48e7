import { describe, expect, it } from 'vitest';
import { EXIT, exitHelp } from '../../src/cli/exit-codes.js';
import { withStoreErrors } from '../../src/cli/store-options.js';
import { InsightError, loadPeer } from '../../src/insights/errors.js';
import { helpOf } from './help-of.js';

// `mcp --help` tells only of what mcp takes, a missing optional package exits as it does in
// `sync`, and the install hint names a package npm can install (not an import's sub-path).

describe('seo-visibility mcp --help', () => {
  it('speaks of no --simulator, dataset or API key beyond --live, and of the reading role', () => {
    const help = helpOf('mcp');
    expect(help).toMatch(/--max-bytes/);
    expect(help).not.toMatch(/--simulator|dataset|not needed with/);
    expect(help).toMatch(/SEO_VISIBILITY_API_KEY\s+the API key, for the api tool of --live only/);
    expect(help).toMatch(/a role that can only SELECT the store/);
  });

  it('gives a client configuration that installs the optional package from a clean machine', () => {
    expect(helpOf('mcp')).toContain(
      '"args": ["-y", "-p", "seo-visibility", "-p", "@modelcontextprotocol/sdk", "seo-visibility", "mcp", "--db", "/path/to/seo.db"]',
    );
  });

  it('report --help speaks of no API key or dataset either', () => {
    expect(exitHelp('report')).not.toMatch(/API_KEY|dataset|--simulator/);
  });

  it('the top-level help still says what 1 and 2 mean', () => {
    expect(exitHelp()).toMatch(/ 1 {3}failed \(the error is printed\)/);
    expect(exitHelp()).toMatch(/ 2 {3}bad usage/);
  });
});

describe('a missing optional package', () => {
  it('exits 1, as in sync (one cause, one exit code)', async () => {
    const err = { write: () => true } as unknown as NodeJS.WriteStream;
    const code = await withStoreErrors(
      { out: err, err, signal: new AbortController().signal, setExit: () => {} },
      async () => {
        throw new InsightError(
          'missing_peer',
          'seo-visibility mcp needs the optional package "@modelcontextprotocol/sdk": npm install @modelcontextprotocol/sdk',
        );
      },
    );
    expect(code).toBe(EXIT.failed);
  });

  it('is named by its package, not by the sub-path imported', async () => {
    const loading = loadPeer(
      '@seo-visibility-test/no-such-sdk/server/mcp.js',
      'seo-visibility mcp',
      '@seo-visibility-test/no-such-sdk',
    );
    await expect(loading).rejects.toThrow(
      'seo-visibility mcp needs the optional package "@seo-visibility-test/no-such-sdk": npm install @seo-visibility-test/no-such-sdk',
    );
  });
});
