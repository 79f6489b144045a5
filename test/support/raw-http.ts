// A GET over a bare TCP socket that is left paused: the client reads the answer only as (and if)
// the caller does, which an HTTP client library would not allow. For slow-reader tests.
import { connect, type TLSSocket } from 'node:tls';
import type { TlsConfig } from '../../src/client/config.js';

/** Sends `GET path` to `baseUrl` (as the holder of `tls`) and resolves with the paused socket once the request is out. */
export function pausedGet(baseUrl: string, tls: TlsConfig, path: string): Promise<TLSSocket> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(
      { host: hostname, port: Number(port), ca: tls.ca, cert: tls.cert, key: tls.key, servername: hostname === '127.0.0.1' ? undefined : hostname },
      () => {
        socket.pause();
        socket.write(`GET ${path} HTTP/1.1\r\nHost: ${hostname}\r\nAccept: application/json\r\n\r\n`, () => resolve(socket));
      },
    );
    socket.once('error', reject);
  });
}
