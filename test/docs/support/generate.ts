/**
 * Turns each example into a module a reader could have written: the example's own imports first,
 * then whatever public name it uses without importing it (from the entry point that exports it,
 * the main entry first), then its code inside `run(fixtures)`, in its own block so that it may
 * declare a name the fixtures also define (e.g. its own `client`).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import type { Snippet } from './extract.js';
import { FIXTURE_NAMES } from './fixture-names.js';

/** A public name and how to import it. */
interface ExportedName {
  specifier: string;
  typeOnly: boolean;
}

/** Entry points from package.json "exports" (`seo-visibility/testing` → src/testing/index.ts). */
export function entryPoints(root: string): Array<{ specifier: string; source: string }> {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    name: string;
    exports: Record<string, unknown>;
  };
  return Object.entries(pkg.exports).flatMap(([subpath, target]) => {
    const built = (target as { import?: { default?: string } }).import?.default;
    if (!built) return [];
    return [
      {
        specifier: subpath === '.' ? pkg.name : `${pkg.name}/${subpath.slice(2)}`,
        source: join(root, built.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts')),
      },
    ];
  });
}

/** Every public name of every entry point; a name exported by several comes from the first. */
export function publicNames(root: string): Map<string, ExportedName> {
  const entries = entryPoints(root);
  const program = ts.createProgram(
    entries.map((e) => e.source),
    {
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      target: ts.ScriptTarget.ES2022,
      noEmit: true,
      skipLibCheck: true,
    },
  );
  const checker = program.getTypeChecker();
  const names = new Map<string, ExportedName>();
  for (const entry of entries) {
    const source = program.getSourceFile(entry.source);
    const moduleSymbol = source && checker.getSymbolAtLocation(source);
    if (!moduleSymbol) continue;
    for (const symbol of checker.getExportsOfModule(moduleSymbol)) {
      if (names.has(symbol.name)) continue;
      const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      names.set(symbol.name, { specifier: entry.specifier, typeOnly: (target.flags & ts.SymbolFlags.Value) === 0 });
    }
  }
  return names;
}

/** A generated module and where its example's code starts in it. */
export interface Generated {
  snippet: Snippet;
  /** File name inside the output folder. */
  name: string;
  text: string;
  /** 1-based line of the generated file holding the example's first code line. */
  firstCodeLine: number;
  /** How many import lines the example starts with (moved above `run`). */
  importLines: number;
}

// An import line, a trailing `// comment` allowed (`import { redisRateLimit } from 'seo-visibility/redis'; // Node only`).
const IMPORT =
  /^\s*import\s[\s\S]*?from\s+['"][^'"]+['"];?\s*(?:\/\/.*)?$|^\s*import\s+['"][^'"]+['"];?\s*(?:\/\/.*)?$/;

/** The module of one example. `fixturesModule` is the import path of fixtures.ts from the output folder. */
export function generate(
  snippet: Snippet,
  index: number,
  names: Map<string, ExportedName>,
  fixturesModule: string,
): Generated {
  const imports: string[] = [];
  const code: string[] = [];
  for (const line of snippet.code) (IMPORT.test(line) && code.length === 0 ? imports : code).push(line);
  const body = code.join('\n');
  const imported = new Set(
    imports.flatMap((line) =>
      [...line.replace(/^[^{]*\{|\}[^}]*$/g, ' ').matchAll(/(?:type\s+)?(\w+)(?:\s+as\s+(\w+))?/g)].map(
        (m) => m[2] ?? m[1]!,
      ),
    ),
  );
  for (const line of imports) {
    const def = /^\s*import\s+(?:type\s+)?(\w+)\s*(?:,|from)/.exec(line);
    if (def) imported.add(def[1]!);
    const ns = /\*\s+as\s+(\w+)/.exec(line);
    if (ns) imported.add(ns[1]!);
  }
  const used = new Set(body.match(/\b[A-Za-z_$][\w$]*\b/g) ?? []);
  const bySpecifier = new Map<string, string[]>();
  for (const name of [...used].sort()) {
    const exported = names.get(name);
    if (!exported || imported.has(name)) continue;
    bySpecifier.set(exported.specifier, [
      ...(bySpecifier.get(exported.specifier) ?? []),
      exported.typeOnly ? `type ${name}` : name,
    ]);
  }
  // In src/resources/backlinks*, `history` is what backlinks.history() returns.
  const aliases: Record<string, string> = /\/backlinks/.test(snippet.file) ? { history: 'backlinkHistory' } : {};
  const fixtureNames = FIXTURE_NAMES.filter((n) => n !== 'backlinkHistory' && !imported.has(n));
  const head = [
    `// ${snippet.id}${snippet.noRun ? ' (no-run: type-checked only)' : ''}`,
    ...imports,
    ...[...bySpecifier].map(([specifier, list]) => `import { ${list.join(', ')} } from '${specifier}';`),
    `import type { Fixtures } from '${fixturesModule}';`,
    '',
    'export async function run(fixtures: Fixtures) {',
    `  const { ${fixtureNames.map((n) => (aliases[n] ? `${aliases[n]}: ${n}` : n)).join(', ')} } = fixtures;`,
    `  void [${fixtureNames.join(', ')}];`,
    '  {',
  ];
  const text = [...head, ...code, '  }', '}', ''].join('\n');
  return {
    snippet,
    name: `example-${String(index).padStart(3, '0')}.ts`,
    text,
    firstCodeLine: head.length + 1,
    importLines: imports.length,
  };
}
