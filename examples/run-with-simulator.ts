/**
 * Runs an example against the built-in simulator, unless SEO_VISIBILITY_API_KEY and
 * SEO_VISIBILITY_BASE_URL are set, in which case it talks to the real service. The simulator
 * listens on 127.0.0.1 and the example gets its URL and key through those two variables.
 *
 *   npm run example examples/audit-triage.ts     # = npx tsx examples/run-with-simulator.ts examples/audit-triage.ts
 *   npm run demo:quick-start                     # the same for examples/quick-start.ts
 */
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { createSimulator } from 'seo-visibility/testing';

const example = process.argv[2];
if (!example) {
  console.error('usage: tsx examples/run-with-simulator.ts <example.ts>');
  process.exit(2);
}

const live = process.env.SEO_VISIBILITY_API_KEY && process.env.SEO_VISIBILITY_BASE_URL;
const simulator = live ? undefined : createSimulator({ seed: 1 });
const server = await simulator?.listen({ port: 0 });
if (simulator && server) {
  process.env.SEO_VISIBILITY_API_KEY = simulator.keys.readWrite;
  process.env.SEO_VISIBILITY_BASE_URL = server.url;
  process.stderr.write(
    `Simulator on ${server.url} (set SEO_VISIBILITY_API_KEY and SEO_VISIBILITY_BASE_URL to use the real service)\n`,
  );
}
// The example sees its own arguments, as if it had been run directly.
process.argv.splice(2, 1);
try {
  await import(pathToFileURL(resolve(example)).href);
} finally {
  await server?.close();
}
