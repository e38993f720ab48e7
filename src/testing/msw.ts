import { HttpResponse, http } from 'msw';
import type { HttpHandler } from 'msw';
import type { Outcome } from './outcome.js';

/**
 * `seo-visibility/testing/msw`: the simulator as msw 3 handlers. A separate entry point so that
 * `seo-visibility/testing` itself never imports msw (an optional peer dependency): `sim.fetch` and
 * `sim.listen()` work without it.
 *
 * @packageDocumentation
 */

/** The part of the simulator the msw form needs: a `Simulator` fits. */
export interface MswSimulator {
  /** Base URL served by default. */
  readonly baseUrl: string;
  /** @internal */
  dispatch(request: Request, basePath?: string): Promise<Outcome>;
}

/**
 * msw 3 handlers that send every request under `baseUrl` (default: the simulator's) through the
 * simulator, in Node (`setupServer`) or the browser (`setupWorker`). A `drop` fault becomes
 * `HttpResponse.error()`, which makes `fetch` reject with `TypeError` in Node and browsers.
 *
 * @example
 * ```ts
 * import { setupServer } from 'msw/node';
 * import { SeoVisibilityClient } from 'seo-visibility';
 * import { createSimulator } from 'seo-visibility/testing';
 * import { mswHandlers } from 'seo-visibility/testing/msw';
 *
 * const sim = createSimulator({ seed: 1 });
 * const server = setupServer(...mswHandlers(sim, 'https://api.example.com/api/v1'));
 * server.listen({ onUnhandledFrame: 'error' }); // e.g. in beforeAll
 * const client = new SeoVisibilityClient({ apiKey: sim.keys.readOnly, baseUrl: 'https://api.example.com/api/v1' });
 * console.log((await client.projects.list()).items.length); // 4, served by the simulator
 * server.close(); // e.g. in afterAll: fetch is yours again
 * ```
 */
export function mswHandlers(sim: MswSimulator, baseUrl: string = sim.baseUrl): HttpHandler[] {
  const base = baseUrl.replace(/\/+$/, '');
  const basePath = new URL(base).pathname.replace(/\/+$/, '');
  return [
    http.all(`${base}/*`, async ({ request }) => {
      try {
        const outcome = await sim.dispatch(request, basePath);
        return outcome.kind === 'drop' ? HttpResponse.error() : outcome.response;
      } catch (error) {
        // The client gave up during an injected delay: nobody reads the answer, so end quietly
        // instead of letting msw report an unhandled exception.
        if (request.signal.aborted) return HttpResponse.error();
        throw error;
      }
    }),
  ];
}
