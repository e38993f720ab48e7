import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { isUuid, UUID } from '../../src/internal/uuid.js';

const src = fileURLToPath(new URL('../../src', import.meta.url));

describe('UUID', () => {
  test('accepts the 8-4-4-4-12 hex shape, any version, either case', () => {
    expect(isUuid('3f2b9c4e-8a1d-4c6e-9b7a-2d5e1f0a6c3b')).toBe(true);
    expect(isUuid('3F2B9C4E-8A1D-1C6E-0B7A-2D5E1F0A6C3B')).toBe(true);
  });

  test.each([
    ['a short group', '3f2b9c4e-8a1d-4c6e-9b7a-2d5e1f0a6c3'],
    ['a non-hex digit', '3f2b9c4e-8a1d-4c6e-9b7a-2d5e1f0a6c3g'],
    ['no dashes', '3f2b9c4e8a1d4c6e9b7a2d5e1f0a6c3b'],
    ['a trailing newline', '3f2b9c4e-8a1d-4c6e-9b7a-2d5e1f0a6c3b\n'],
    ['a path around it', '../3f2b9c4e-8a1d-4c6e-9b7a-2d5e1f0a6c3b'],
    ['not a string', 42],
  ])('refuses %s', (_, value) => {
    expect(isUuid(value)).toBe(false);
  });

  test('is written once in src/: the SDK, the sync and the simulator share it', () => {
    const files = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    const holders = files.filter((f) => readFileSync(join(src, f), 'utf8').includes(UUID.source.slice(1, 20)));
    expect(holders).toEqual(['internal/uuid.ts']);
  });
});
