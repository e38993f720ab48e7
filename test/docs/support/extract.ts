/**
 * Finds every fenced TypeScript example in the JSDoc of src/ (the examples the API reference
 * shows), and in a Markdown page (the README's). A comment tagged `@internal` is left out (TypeDoc leaves it out of the reference), and so
 * is src/cli (a command, documented by its --help, not a library API).
 *
 * A fence may carry one tag after the language:
 * - ```ts no-run — type-checked with the others but not run, for an example that needs what no
 *   test may reach (a real host, a third-party server). The test counts and lists them.
 * - ```ts no-check — neither type-checked nor run, for an example built on a package the
 *   repository does not install (pino, the OpenTelemetry SDK); the test checks that it imports one.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** One example, where the reference shows it. */
export interface Snippet {
  /** `src/…/file.ts:line` of the opening fence: where to fix it. */
  id: string;
  /** Repository-relative path of the file. */
  file: string;
  /** Line of the opening fence. */
  line: number;
  /** Lines between the fences, without the comment's ` * `, an escaped comment end unescaped. */
  code: string[];
  /** Whether the fence says `no-run`. */
  noRun: boolean;
  /** Whether the fence says `no-check`. */
  noCheck: boolean;
}

const SKIPPED_DIRS = new Set(['cli']);
const FENCE = /^```(ts|typescript)\b\s*(.*)$/;

/** Every `.ts` file under `dir`, sorted, src/cli excluded. */
function sourceFiles(root: string, dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return dir === 'src' && SKIPPED_DIRS.has(entry.name) ? [] : sourceFiles(root, path);
      return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
    });
}

/** The examples of one file's text. */
export function snippetsOf(file: string, text: string): Snippet[] {
  const found: Snippet[] = [];
  for (const comment of text.matchAll(/\/\*\*([\s\S]*?)\*\//g)) {
    const body = comment[1]!;
    if (/@internal\b/.test(body)) continue;
    const firstLine = text.slice(0, comment.index).split('\n').length;
    const lines = body.split('\n').map((line) => line.replace(/^\s*\* ?/, ''));
    for (let i = 0; i < lines.length; i++) {
      const open = FENCE.exec(lines[i]!.trim());
      if (!open) continue;
      const end = lines.findIndex((line, j) => j > i && line.trim().startsWith('```'));
      const close = end === -1 ? lines.length : end;
      const line = firstLine + i;
      found.push({
        id: `${file}:${line}`,
        file,
        line,
        code: lines.slice(i + 1, close).map((line) => line.replaceAll('*\\/', '*/')),
        noRun: /\bno-run\b/.test(open[2] ?? ''),
        noCheck: /\bno-check\b/.test(open[2] ?? ''),
      });
      i = close;
    }
  }
  return found;
}

/** Every example of src/, in file and line order. */
export function extractSnippets(root: string): Snippet[] {
  return sourceFiles(root, 'src').flatMap((path) =>
    snippetsOf(relative(root, join(root, path)), readFileSync(join(root, path), 'utf8')),
  );
}

/**
 * The examples of a Markdown page: every ```ts fence, indented ones (inside a list item) included,
 * the indentation of the opening fence removed from each line.
 */
export function markdownSnippets(file: string, text: string): Snippet[] {
  const lines = text.split('\n');
  const found: Snippet[] = [];
  for (let i = 0; i < lines.length; i++) {
    const indent = /^\s*/.exec(lines[i]!)![0];
    const open = FENCE.exec(lines[i]!.trim());
    if (!open) continue;
    const end = lines.findIndex((line, j) => j > i && line.trim().startsWith('```'));
    const close = end === -1 ? lines.length : end;
    const code = lines
      .slice(i + 1, close)
      .map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line.trimStart()));
    found.push({
      id: `${file}:${i + 1}`,
      file,
      line: i + 1,
      code,
      noRun: /\bno-run\b/.test(open[2] ?? ''),
      noCheck: /\bno-check\b/.test(open[2] ?? ''),
    });
    i = close;
  }
  return found;
}
