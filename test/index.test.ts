import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, expectTypeOf, test } from 'vitest';
import * as sdk from '../src/index.js';
import type { Audit, KeywordRanking, WebhookEvent } from '../src/index.js';
import type { Audit as AuditFromFile } from '../src/resources/audits.js';

describe('src/index', () => {
  test('re-exports every resource class, its helpers and its schemas from the resource files', () => {
    for (const name of ['Audits', 'Backlinks', 'Content', 'Projects', 'Prompts', 'Rankings', 'Reports', 'Webhooks']) {
      expect(typeof (sdk as Record<string, unknown>)[name], name).toBe('function');
    }
    expect(sdk.KNOWN_EVENT_NAMES).toContain('audit.completed');
    expect(typeof sdk.keywordIdOf).toBe('function');
    expect(typeof sdk.isKnownWebhookEvent).toBe('function');
    // Schemas travel with their resource (marked @internal, so the reference leaves them out).
    expect(sdk.AuditSchema.safeParse({}).success).toBe(false);
  });

  test('re-exports the types', () => {
    expectTypeOf<Audit>().toEqualTypeOf<AuditFromFile>();
    expectTypeOf(sdk.keywordIdOf).parameter(0).toEqualTypeOf<KeywordRanking>();
    expectTypeOf(sdk.isKnownWebhookEvent).parameter(0).toEqualTypeOf<WebhookEvent>();
  });

  test('seo-visibility and seo-visibility/testing never export two different things under one name', () => {
    const file = (path: string) => fileURLToPath(new URL(path, import.meta.url));
    const config = ts.getParsedCommandLineOfConfigFile(file('../tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
    const entries = [file('../src/index.ts'), file('../src/testing/index.ts')];
    const program = ts.createProgram(entries, config!.options);
    const checker = program.getTypeChecker();
    const [main, testing] = entries.map((entry) => checker.getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(entry)!)!));
    const mainNames = new Set(main!.map((symbol) => symbol.name));
    expect(testing!.map((symbol) => symbol.name).filter((name) => mainNames.has(name))).toEqual([]);
  }, 30_000);
});
