import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { VERSION } from '../../src/wire/version.js';

test('VERSION (sent in User-Agent) is the version in package.json', () => {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  expect(VERSION).toBe(pkg.version);
});
