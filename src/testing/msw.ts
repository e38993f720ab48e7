import { HttpResponse, http } from 'msw';
import type { HttpHandler } from 'msw';
import type { Outcome } from './pipeline.js';

/** The part of the simulator the msw form needs. @internal */
export interface Dispatcher {
  dispatch(request: Request, basePath: string): Promise<Outcome>;
}

/**
 * msw 3 handlers that send every request under `baseUrl` through the simulator. A `drop` fault
 * becomes `HttpResponse.error()`, which makes `fetch` reject with `TypeError` in Node and browsers.
 *
 * @example
 * ```ts
 * const server = setupServer(...createMswHandlers(sim, 'http://localhost/api/v1'));
 * ```
 * @internal
 */
export function createMswHandlers(sim: Dispatcher, baseUrl: string): HttpHandler[] {
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
