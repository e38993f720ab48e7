#!/usr/bin/env node
/**
 * `seo-visibility-simulator`: runs the API simulator as a standalone HTTP server on loopback and
 * prints the base URL and both API keys.
 *
 * ```sh
 * seo-visibility-simulator --port 4010 --seed 1
 * seo-visibility-simulator --keywords 100000 --tick 1000 --host 127.0.0.1
 * seo-visibility-simulator --speedup 60      # rate windows 60× faster: the minute lasts a second
 * ```
 *
 * `--tick <ms>` (default 1000, 0 to disable) runs due transitions on the real clock every `ms`, so
 * audits progress and events are delivered while the server runs; webhook deliveries use `fetch`.
 *
 * @example
 * ```sh
 * npx seo-visibility-simulator --port 4010 --seed 1
 * # SEO_VISIBILITY_BASE_URL=http://127.0.0.1:4010/api/v1
 * ```
 * @module
 */
import { parseArgs } from 'node:util';
import { createSimulator } from './simulator.js';
import { ENV } from '../internal/env-names.js';

const USAGE = `Usage: seo-visibility-simulator [--port 4010] [--host 127.0.0.1] [--seed 1] [--keywords 2500] [--tick 1000] [--speedup 1] [--no-rate-limit]`;

/**
 * Parses arguments, starts the server, and returns a function that stops it.
 * @example `const stop = await main(['--port', '0']); await stop();`
 */
export async function main(
  argv: readonly string[],
  print: (line: string) => void = console.log,
): Promise<() => Promise<void>> {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      port: { type: 'string', default: '4010' },
      host: { type: 'string', default: '127.0.0.1' },
      seed: { type: 'string', default: '1' },
      keywords: { type: 'string', default: '2500' },
      tick: { type: 'string', default: '1000' },
      speedup: { type: 'string', default: '1' },
      'no-rate-limit': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    print(USAGE);
    return async () => {};
  }
  const number = (name: string, raw: string): number => {
    const n = Number(raw);
    if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} must be a non-negative integer\n${USAGE}`);
    return n;
  };
  const sim = createSimulator({
    seed: number('seed', values.seed),
    keywordsPerProject: number('keywords', values.keywords),
    speedup: Number(values.speedup), // checked by createSimulator, which names the option
    ...(values['no-rate-limit'] ? { rateLimit: false as const } : {}),
  });
  const server = await sim.listen({ port: number('port', values.port), host: values.host });
  const tickMs = number('tick', values.tick);
  const timer = tickMs > 0 ? setInterval(() => void sim.advance(0).catch(() => undefined), tickMs) : undefined;
  timer?.unref?.();
  print(`SEO and AI Visibility API simulator listening`);
  print(`${ENV.baseUrl}=${server.url}`);
  print(`Read + Write key: ${sim.keys.readWrite}`);
  print(`Read Only key:    ${sim.keys.readOnly}`);
  if (sim.rateWindows.length > 0)
    print(`Rate windows per key: ${sim.rateWindows.map((w) => `${w.limit}/${w.intervalMs} ms`).join(', ')}`);
  return async () => {
    if (timer) clearInterval(timer);
    await server.close();
  };
}

// Run only when executed directly (not when imported by tests).
const invokedAs = process.argv[1] ?? '';
if (/seo-visibility-simulator$|[\\/]cli\.(c?js|ts)$/.test(invokedAs)) {
  main(process.argv.slice(2)).then(
    (stop) => {
      const shutdown = () => void stop().finally(() => process.exit(0));
      process.once('SIGINT', shutdown);
      process.once('SIGTERM', shutdown);
    },
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}
