// The plain `Upgrade: SPDY/3.1` handshake (k8s.io/apimachinery httpstream): the client lists the
// sub-protocols it speaks in X-Stream-Protocol-Version headers, the server names its pick in the
// 101 answer, and from then on the socket carries SPDY frames.

import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { sessionOverSocket } from './spdy/transports.js';
import type { SpdySession } from './spdy/session.js';
import { StreamingError, rejectUpgrade } from './status.js';

export const SPDY_UPGRADE = 'SPDY/3.1';
/** KEP-4006: a WebSocket sub-protocol that tunnels SPDY, e.g. `SPDY/3.1+portforward.k8s.io`. */
export const TUNNEL_PREFIX = 'SPDY/3.1+';

export function isSpdyUpgrade(req: IncomingMessage): boolean {
  return (req.headers.upgrade ?? '').toLowerCase() === SPDY_UPGRADE.toLowerCase();
}

export function isWebSocketUpgrade(req: IncomingMessage): boolean {
  return (req.headers.upgrade ?? '').toLowerCase() === 'websocket';
}

/** Every value of a header that may be repeated or comma-joined. */
export function headerList(req: IncomingMessage, name: string): string[] {
  const lower = name.toLowerCase();
  const values: string[] = [];
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    if (req.rawHeaders[i]!.toLowerCase() === lower) values.push(...req.rawHeaders[i + 1]!.split(','));
  }
  return values.map((v) => v.trim()).filter((v) => v !== '');
}

/**
 * The client's first protocol that the server speaks. A client that names none is an old one;
 * `allowNone` says whether it is served anyway (port-forward has only ever had one protocol).
 */
export function negotiateStreamProtocol(req: IncomingMessage, supported: readonly string[], allowNone: boolean): string {
  const offered = headerList(req, 'X-Stream-Protocol-Version');
  if (offered.length === 0 && allowNone) return '';
  const chosen = offered.find((p) => supported.includes(p));
  if (chosen !== undefined) return chosen;
  throw new StreamingError(
    403,
    'Forbidden',
    `unable to upgrade: unable to negotiate protocol: client supports [${offered.join(' ')}], server accepts [${supported.join(' ')}]`,
  );
}

/** Answers 101 and starts the SPDY session; `head` holds bytes the client sent after its request. */
export function acceptSpdy(socket: Duplex, head: Buffer, protocol: string): SpdySession {
  const lines = ['HTTP/1.1 101 Switching Protocols', 'Connection: Upgrade', `Upgrade: ${SPDY_UPGRADE}`];
  if (protocol) lines.push(`X-Stream-Protocol-Version: ${protocol}`);
  socket.write(`${lines.join('\r\n')}\r\n\r\n`);
  const session = sessionOverSocket(socket);
  if (head.length > 0) session.receive(head);
  return session;
}

export function refuseSpdy(socket: Duplex, error: StreamingError, supported: readonly string[]): void {
  rejectUpgrade(socket, error, { 'X-Accepted-Stream-Protocol-Versions': supported.join(', ') });
}
