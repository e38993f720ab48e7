import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { INSIGHT_VIEWS } from '../../src/insights/views.js';
import { root } from './support.js';

// docs/insights.md documents every view column by column; the descriptions live in views.ts (the
// schema tool serves them), and this keeps the page from drifting from them.
const doc = readFileSync(join(root, 'docs', 'insights.md'), 'utf8');

describe('docs/insights.md', () => {
  it.each(INSIGHT_VIEWS.map((v) => [v.name, v] as const))(
    'documents %s, every column with its description',
    (_name, view) => {
      expect(doc).toContain(`### \`${view.name}\`\n\n${view.description}\n`);
      for (const [column, description] of Object.entries(view.columns))
        expect(doc).toContain(`| \`${column}\` | ${description.replaceAll('|', '\\|')} |`);
    },
  );
});
