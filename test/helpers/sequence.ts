import type { SetupServer } from 'msw/node';
import { http } from './api-server.js';

/**
 * Answers each request to `url` with the next responder (the last one repeats) and counts requests.
 * Bound to a test file's msw server: `const sequence = sequenceOn(server)`.
 */
export function sequenceOn(server: SetupServer) {
  return (method: 'get' | 'post', url: string, ...responders: Array<() => Response | Promise<Response>>) => {
    const calls = { count: 0 };
    server.use(
      http[method](url, async () => {
        const responder = responders[Math.min(calls.count, responders.length - 1)]!;
        calls.count++;
        return responder();
      }),
    );
    return calls;
  };
}
