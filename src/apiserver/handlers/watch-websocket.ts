// Watches over a WebSocket, as kube-apiserver serves them: `GET ...?watch=1` with
// `Upgrade: websocket` gets the same events as the HTTP stream, one JSON event per text message.
// Browsers need this: they open at most six HTTP/1.1 connections per server, and every streamed
// watch holds one, so a page with a handful of live lists would starve its own writes; WebSockets
// are counted apart. Authentication and authorization happened before (server.ts admitUpgrade):
// a browser's token rides in the sub-protocol (auth/authn/websocket-protocol.ts).
//
// The handler is the ordinary serveWatch, writing to a response that frames lines into messages
// and applies the socket's backpressure, so the HTTP and WebSocket watches cannot drift apart.
import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { Writable } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { toApiError } from '../errors.js';
import { BEARER_PROTOCOL_PREFIX } from '../../auth/authn/websocket-protocol.js';
import type { RequestContext } from './context.js';
import { parseBoolean } from './context.js';
import type { ResourcePath } from '../routes.js';

const wss = new WebSocketServer({
  noServer: true,
  clientTracking: false,
  perMessageDeflate: false,
  // As kube-apiserver (x/net/websocket): the first sub-protocol offered, whatever it is.
  // A bearer token offered as a sub-protocol was taken out at authentication; never chosen here.
  handleProtocols: (offered) => [...offered].find((protocol) => !protocol.startsWith(BEARER_PROTOCOL_PREFIX)) ?? false,
});

/** Whether an upgrade asks for a watch (then serveWatchOverWebSocket answers it). */
export function isWebSocketWatch(req: IncomingMessage, path: ResourcePath | undefined, query: URLSearchParams): path is ResourcePath {
  if (!path || path.subresource || (req.method ?? 'GET') !== 'GET') return false;
  if ((req.headers.upgrade ?? '').toLowerCase() !== 'websocket') return false;
  try {
    return path.legacyWatch === true || parseBoolean(query, 'watch');
  } catch {
    return false;
  }
}

/**
 * Completes the WebSocket handshake, then runs `serve` (the resource router, which reaches
 * serveWatch) with a response that sends each event line as one message. A failure after the
 * handshake is sent as an ERROR event carrying the Status, as a watch stream reports one.
 */
export function serveWatchOverWebSocket(
  req: IncomingMessage,
  socket: Duplex,
  head: Buffer,
  serve: (ctx: Pick<RequestContext, 'req' | 'res'>) => Promise<void>,
): void {
  wss.handleUpgrade(req, socket, head, (ws) => {
    const res = new MessageResponse(ws);
    // The handlers listen for the request's 'close' to stop the watch: it is the socket's.
    const request = Object.assign(new EventEmitter(), {
      headers: req.headers,
      method: req.method,
      url: req.url,
      socket: req.socket,
    }) as unknown as IncomingMessage;
    ws.once('close', () => {
      request.emit('close');
      res.destroy();
    });
    serve({ req: request, res: res as unknown as ServerResponse }).catch((error: unknown) => {
      if (ws.readyState !== ws.OPEN) return;
      ws.send(JSON.stringify({ type: 'ERROR', object: toApiError(error).toStatus() }), () => ws.close(1000));
    });
  });
}

/** The subset of ServerResponse serveWatch uses, over a WebSocket: one message per line. */
class MessageResponse extends Writable {
  private partial = '';

  constructor(private readonly ws: WebSocket) {
    super({ decodeStrings: false });
  }

  writeHead(): this {
    return this;
  }

  flushHeaders(): void {}

  override _write(chunk: string | Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    const lines = (this.partial + chunk.toString()).split('\n');
    this.partial = lines.pop() ?? '';
    const complete = lines.filter((line) => line !== '');
    if (complete.length === 0 || this.ws.readyState !== this.ws.OPEN) return callback();
    // Written once the socket took the last of them: that is the backpressure the handler sees.
    complete.forEach((line, i) => this.ws.send(line, { binary: false }, i === complete.length - 1 ? (error) => callback(error ?? null) : undefined));
  }

  override _final(callback: (error?: Error | null) => void): void {
    if (this.ws.readyState === this.ws.OPEN) this.ws.close(1000);
    callback();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    if (this.ws.readyState === this.ws.OPEN || this.ws.readyState === this.ws.CONNECTING) this.ws.terminate();
    callback(error);
  }
}
