import { createServer } from 'node:net';

/**
 * A port the OS just handed out on 127.0.0.1 (free a moment ago). Its own module, importing no
 * child_process, so a unit test that needs a closed port (a refused connection) stays a unit test.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}
