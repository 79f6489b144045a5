// A GET over a bare TCP socket that is left paused: the client reads the answer only as (and if)
// the caller does, which an HTTP client library would not allow. For slow-reader tests.
import { connect, type Socket } from 'node:net';

/** Sends `GET path` to `baseUrl` and resolves with the paused socket once the request is out. */
export function pausedGet(baseUrl: string, path: string): Promise<Socket> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) }, () => {
      socket.pause();
      socket.write(`GET ${path} HTTP/1.1\r\nHost: ${hostname}\r\nAccept: application/json\r\n\r\n`, () => resolve(socket));
    });
    socket.once('error', reject);
  });
}
