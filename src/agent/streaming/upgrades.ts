// exec, attach and port-forward arrive as HTTP upgrades, in the forms kubectl 1.32 tries:
//   exec/attach   WebSocket, sub-protocol v5.channel.k8s.io (v4 for other clients); SPDY/3.1 with
//                 X-Stream-Protocol-Version v5/v4 when the WebSocket is refused or disabled.
//   port-forward  WebSocket, sub-protocol SPDY/3.1+portforward.k8s.io: SPDY frames tunnelled in
//                 binary messages (KEP-4006); plain SPDY/3.1 + portforward.k8s.io as the fallback.
// Everything that can fail is checked before the 101, so that the client gets an HTTP Status it
// can print (and kubectl may fall back) rather than a dead connection.

import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { CHANNEL_PROTOCOLS, selectChannelProtocol } from './channel-protocol.js';
import { PORT_FORWARD_PROTOCOL, servePortForward } from './port-forward.js';
import type { PortDialer } from './port-dialer.js';
import { runAttach, runExec, type CommandChannel } from './remote-command.js';
import type { ContainerResolver, ResolvedContainer, ResolvedSandbox } from './resolver.js';
import { execCommand, parseStreamingPath, requestedStreams, type StreamingRoute } from './routes.js';
import { spdyCommandChannel, SPDY_COMMAND_PROTOCOLS } from './spdy-command-channel.js';
import { SPDY_UPGRADE, TUNNEL_PREFIX, acceptSpdy, headerList, isSpdyUpgrade, isWebSocketUpgrade, negotiateStreamProtocol, refuseSpdy } from './spdy-upgrade.js';
import { sessionOverWebSocket } from './spdy/transports.js';
import type { SpdySession } from './spdy/session.js';
import { badRequest, internalErrorStatus, notFound, rejectUpgrade, toStreamingError } from './status.js';
import { websocketChannel } from './websocket-channel.js';

export interface SessionInfo {
  kind: 'exec' | 'attach' | 'portForward';
  namespace: string;
  pod: string;
  container?: string;
  transport: 'websocket' | 'spdy';
  /** The negotiated sub-protocol, e.g. v5.channel.k8s.io or SPDY/3.1+portforward.k8s.io. */
  protocol: string;
}

export interface UpgradeContext {
  resolver: ContainerResolver;
  dialPort: PortDialer;
  onSession?: (info: SessionInfo) => void;
}

const TUNNEL_PROTOCOL = `${TUNNEL_PREFIX}${PORT_FORWARD_PROTOCOL}`;

/** One server for every WebSocket upgrade; the sub-protocol is chosen per request before it. */
export function createWebSocketServer(): { wss: WebSocketServer; choose(req: IncomingMessage, protocol: string): void } {
  const chosen = new WeakMap<IncomingMessage, string>();
  const wss = new WebSocketServer({
    noServer: true,
    clientTracking: false,
    perMessageDeflate: false,
    handleProtocols: (_offered, req) => chosen.get(req) ?? false,
  });
  return {
    wss,
    choose(req, protocol) {
      chosen.set(req, protocol);
      // `ws` refuses offers that are not RFC 7230 tokens, and KEP-4006's `SPDY/3.1+portforward.k8s.io`
      // has a '/'. The choice is made already (from the raw headers), so `ws` is shown a token
      // and answers with the real name through handleProtocols.
      req.headers['sec-websocket-protocol'] = 'negotiated';
    },
  };
}

function websocketProtocol(req: IncomingMessage, kind: StreamingRoute['kind']): string {
  const offered = headerList(req, 'Sec-WebSocket-Protocol');
  const protocol = kind === 'portForward' ? offered.find((p) => p === TUNNEL_PROTOCOL) : selectChannelProtocol(offered);
  if (protocol) return protocol;
  const supported = kind === 'portForward' ? [TUNNEL_PROTOCOL] : CHANNEL_PROTOCOLS;
  throw badRequest(`unable to negotiate a WebSocket sub-protocol: the client offers [${offered.join(' ')}], the server speaks [${supported.join(' ')}]`);
}

/** What an upgraded connection serves: the pod's sandbox for port-forward, a container for exec and attach. */
type Target = { kind: 'portForward'; sandbox: ResolvedSandbox } | { kind: 'command'; container: ResolvedContainer };

/** Before the 101: a pod or container the resolver cannot find is its ResolveError, as an HTTP answer. */
async function resolveTarget(route: StreamingRoute, resolver: ContainerResolver): Promise<Target> {
  if (route.kind === 'portForward') return { kind: 'portForward', sandbox: await resolver.resolveSandbox(route.namespace, route.pod) };
  return { kind: 'command', container: await resolver.resolve(route.namespace, route.pod, route.container) };
}

function runCommand(route: StreamingRoute, channel: CommandChannel, target: ResolvedContainer, query: URLSearchParams): void {
  const tty = requestedStreams(query).tty;
  const run = route.kind === 'exec' ? runExec(channel, target, { command: execCommand(query), tty }) : runAttach(channel, target);
  run.catch((error: unknown) => channel.finish(internalErrorStatus(error instanceof Error ? error.message : String(error))));
}

function onCommandSpdy(session: SpdySession, route: StreamingRoute, target: ResolvedContainer, query: URLSearchParams): void {
  spdyCommandChannel(session, requestedStreams(query)).then(
    (channel) => runCommand(route, channel, target, query),
    () => session.close(),
  );
}

interface Upgrade {
  req: IncomingMessage;
  socket: Duplex;
  head: Buffer;
  route: StreamingRoute & { kind: 'exec' | 'attach' | 'portForward' };
  query: URLSearchParams;
}

function sessionInfo(route: Upgrade['route'], transport: SessionInfo['transport'], protocol: string): SessionInfo {
  return { kind: route.kind, namespace: route.namespace, pod: route.pod, ...(route.container ? { container: route.container } : {}), transport, protocol };
}

async function upgradeWebSocket(up: Upgrade, ws: ReturnType<typeof createWebSocketServer>, ctx: UpgradeContext): Promise<void> {
  const { route, query } = up;
  const protocol = websocketProtocol(up.req, route.kind);
  const target = await resolveTarget(route, ctx.resolver);
  ws.choose(up.req, protocol);
  ws.wss.handleUpgrade(up.req, up.socket, up.head, (conn: WebSocket) => {
    ctx.onSession?.(sessionInfo(route, 'websocket', protocol));
    if (target.kind === 'portForward') {
      servePortForward(sessionOverWebSocket(conn), { target: target.sandbox, dial: ctx.dialPort, podName: `${route.namespace}/${route.pod}` });
    } else {
      runCommand(route, websocketChannel(conn, protocol, requestedStreams(query)), target.container, query);
    }
  });
}

async function upgradeSpdy(up: Upgrade, ctx: UpgradeContext): Promise<void> {
  const { route, query } = up;
  const supported = route.kind === 'portForward' ? [PORT_FORWARD_PROTOCOL] : SPDY_COMMAND_PROTOCOLS;
  let protocol: string;
  try {
    protocol = negotiateStreamProtocol(up.req, supported, route.kind === 'portForward');
  } catch (error) {
    return refuseSpdy(up.socket, toStreamingError(error), supported);
  }
  const target = await resolveTarget(route, ctx.resolver);
  const session = acceptSpdy(up.socket, up.head, protocol);
  session.on('error', () => undefined);
  ctx.onSession?.(sessionInfo(route, 'spdy', `${SPDY_UPGRADE} ${protocol}`.trim()));
  if (target.kind === 'portForward') servePortForward(session, { target: target.sandbox, dial: ctx.dialPort, podName: `${route.namespace}/${route.pod}` });
  else onCommandSpdy(session, route, target.container, query);
}

export async function handleStreamingUpgrade(
  req: IncomingMessage,
  socket: Duplex,
  head: Buffer,
  ws: ReturnType<typeof createWebSocketServer>,
  ctx: UpgradeContext,
): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://agent');
  const route = parseStreamingPath(url.pathname);
  if (!route || route.kind === 'containerLogs' || route.kind === 'signal') throw notFound(`no upgrade is served at ${url.pathname}`);
  // Validate the query now: afterwards the only way to report is the error channel.
  if (route.kind !== 'portForward') requestedStreams(url.searchParams);
  if (route.kind === 'exec') execCommand(url.searchParams);
  const up: Upgrade = { req, socket, head, route: { ...route, kind: route.kind }, query: url.searchParams };
  if (isWebSocketUpgrade(req)) return upgradeWebSocket(up, ws, ctx);
  if (isSpdyUpgrade(req)) return upgradeSpdy(up, ctx);
  throw badRequest(`unsupported upgrade "${req.headers.upgrade ?? ''}": use websocket or ${SPDY_UPGRADE}`);
}

export function refuseUpgrade(socket: Duplex, error: unknown): void {
  rejectUpgrade(socket, toStreamingError(error));
}
