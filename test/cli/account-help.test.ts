import { describe, expect, it } from 'vitest';
import { helpOf } from './help-of.js';

// `report` and `mcp` both take --account (one account of a fleet warehouse), and say so in --help
// with an example over the fleet's schema.

describe('--account in --help', () => {
  it.each(['report', 'mcp'])('%s: the option, and an example over the fleet schema', (name) => {
    const help = helpOf(name);
    expect(help).toMatch(/--account <id>\s+one account of a fleet warehouse \(its account_id\)/);
    expect(help).toMatch(
      new RegExp(`\\$ seo-visibility ${name} --postgres \\S+ --schema seo_visibility_fleet --account acme`),
    );
  });
});
