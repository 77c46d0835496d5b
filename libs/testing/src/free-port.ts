import { createServer } from 'node:net';

/**
 * A port free on 127.0.0.1 now, as the OS hands one out, for a process a test starts on a port of
 * its own. Not a random pick in 20000-40000: that range overlaps Linux's ephemeral ports, and a
 * pick already taken by an outbound connection failed a CI run with EADDRINUSE.
 */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}
