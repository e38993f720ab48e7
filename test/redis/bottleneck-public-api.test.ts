/**
 * Issue 24 §5: the Redis entry uses bottleneck through its public API only (the typed `Bottleneck`
 * and `IORedisConnection` methods), never its internals (`subscriber`, `terminated`, `_store`, …):
 * bottleneck 2.19.5 is its last release, and reaching inside it ties us to one build of it.
 * Behaviour is covered by the system tests beside this file; this holds the rule.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

const dir = fileURLToPath(new URL('../../src/redis/', import.meta.url));
const INTERNALS =
  /\.(?:subscriber|terminated|_store|_states|_scheduled|_submitLock|_registerLock|_drainAll|__\w+__)\b|as unknown as \{[^}]*(?:subscriber|terminated)/;

describe('bottleneck through its public API only', () => {
  test('no file of src/redis reads bottleneck internals', () => {
    const offenders = readdirSync(dir)
      .filter((name) => name.endsWith('.ts'))
      .flatMap((name) =>
        readFileSync(dir + name, 'utf8')
          .split('\n')
          .map((line, i) => ({ where: `${name}:${i + 1}`, line: line.trim() }))
          .filter(({ line }) => !line.startsWith('*') && !line.startsWith('//') && INTERNALS.test(line)),
      );
    expect(offenders).toEqual([]);
  });
});
