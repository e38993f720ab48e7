import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

// The repository root, computed here: the examples' support module (which runs tsc and child
// processes) would make this quick unit test a system one.
const root = fileURLToPath(new URL('../..', import.meta.url));

// The README is what a newcomer reads in ten minutes; reference material lives in docs/. Every
// relative link of either must lead somewhere: a file that exists, and a heading that exists when
// the link names one.
const README_BUDGET_BYTES = 20 * 1024;
const pages = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
const slug = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

/** The anchors of a Markdown file's headings (outside code fences). */
function anchors(file: string): Set<string> {
  const text = readFileSync(file, 'utf8').replace(/^```[\s\S]*?^```/gm, '');
  return new Set([...text.matchAll(/^#{1,6}\s+(.+)$/gm)].map((m) => slug(m[1]!.trim())));
}

/** `[text](target)` links of a page, code spans and fences left out, with their line. */
function links(page: string): Array<{ target: string; line: number }> {
  const lines = readFileSync(join(root, page), 'utf8').split('\n');
  const found: Array<{ target: string; line: number }> = [];
  let fenced = false;
  lines.forEach((text, i) => {
    if (/^\s*```/.test(text)) fenced = !fenced;
    if (fenced) return;
    for (const m of text.replace(/`[^`]*`/g, '').matchAll(/\]\(([^)\s]+)\)/g))
      found.push({ target: m[1]!, line: i + 1 });
  });
  return found;
}

describe('README and docs/', () => {
  test(`the README is at most ${README_BUDGET_BYTES / 1024} KiB`, () => {
    expect(statSync(join(root, 'README.md')).size).toBeLessThanOrEqual(README_BUDGET_BYTES);
  });

  test.each(pages.map((p) => [p]))('every relative link of %s resolves', (page) => {
    const broken: string[] = [];
    for (const { target, line } of links(page)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:
      const [path, anchor] = target.split('#') as [string, string | undefined];
      const file = path === '' ? join(root, page) : join(root, dirname(page), decodeURIComponent(path));
      if (!file.startsWith(root) || !existsSync(file))
        broken.push(`${page}:${line}: ${target} (no file ${relative(root, file)})`);
      else if (anchor && file.endsWith('.md') && !anchors(file).has(anchor))
        broken.push(`${page}:${line}: ${target} (no heading #${anchor})`);
    }
    expect(broken).toEqual([]);
  });
});
