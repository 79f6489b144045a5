// A bearer token carried in a WebSocket sub-protocol (Kubernetes' websocket protocol
// authenticator): browsers cannot set an Authorization header on a WebSocket, so a client offers
//   Sec-WebSocket-Protocol: base64url.bearer.authorization.k8s.io.<base64url(token)>, v5.channel.k8s.io
// The token's entry is taken out of the header before anything else sees it, so it never reaches
// a node agent and is never chosen as the sub-protocol; at least one other entry must remain.
import type { IncomingMessage } from 'node:http';
import { Unauthenticated } from './authenticator.js';

export const BEARER_PROTOCOL_PREFIX = 'base64url.bearer.authorization.k8s.io.';

/**
 * The token a WebSocket upgrade carries in its sub-protocols, removed from the request's headers;
 * undefined when the request is no WebSocket upgrade or offers none. Throws Unauthenticated for a
 * malformed one, as Kubernetes answers 401 for it.
 */
export function takeWebSocketBearerToken(req: IncomingMessage): string | undefined {
  if ((req.headers.upgrade ?? '').toLowerCase() !== 'websocket') return undefined;
  const offered = (req.headers['sec-websocket-protocol'] ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  const tokens = offered.filter((p) => p.startsWith(BEARER_PROTOCOL_PREFIX));
  if (tokens.length === 0) return undefined;
  // Out of the headers before anything is judged: a refused token is not forwarded either.
  const rest = offered.filter((p) => !p.startsWith(BEARER_PROTOCOL_PREFIX));
  setProtocols(req, rest);
  if (tokens.length > 1) throw new Unauthenticated('multiple base64url.bearer.authorization tokens specified');
  const encoded = tokens[0]!.slice(BEARER_PROTOCOL_PREFIX.length);
  if (!/^[A-Za-z0-9_-]+$/.test(encoded)) throw new Unauthenticated('invalid base64url bearer token');
  const token = Buffer.from(encoded, 'base64url').toString('utf8');
  if (token === '') throw new Unauthenticated('invalid bearer token');
  if (rest.length === 0) throw new Unauthenticated('missing additional subprotocol');
  return token;
}

function setProtocols(req: IncomingMessage, protocols: string[]): void {
  const value = protocols.join(', ');
  req.headers['sec-websocket-protocol'] = value;
  // The raw list too: the upgrade proxy (pod-proxy.ts) forwards the raw headers.
  const raw: string[] = [];
  let written = false;
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    if (req.rawHeaders[i]!.toLowerCase() !== 'sec-websocket-protocol') raw.push(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
    else if (!written) ((written = true), raw.push(req.rawHeaders[i]!, value));
  }
  req.rawHeaders.splice(0, req.rawHeaders.length, ...raw);
}
