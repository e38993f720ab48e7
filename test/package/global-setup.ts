import { rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { TestProject } from 'vitest/node';
import { packRepo, scratchProject } from './support.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Path of the packed `seo-visibility-<version>.tgz`. */
    tarball: string;
    /** A scratch ESM project with the tarball and msw (the optional peer `seo-visibility/testing` needs) installed. */
    consumerDir: string;
  }
}

/**
 * Packs once and installs once for every packed-package test (package, browser, runtimes): the
 * tarball is what users receive, so every runtime is tested on exactly that.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const tarball = await packRepo();
  const consumerDir = await scratchProject(tarball, ['msw@3']);
  project.provide('tarball', tarball);
  project.provide('consumerDir', consumerDir);
  return async () => {
    await rm(dirname(tarball), { recursive: true, force: true });
    await rm(consumerDir, { recursive: true, force: true });
  };
}
