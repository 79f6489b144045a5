// The cluster DNS server: UDP and TCP on one port, answering from a DnsView and never forwarding.
import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { createServer, isIPv6, type Server, type Socket } from 'node:net';
import { silentLogger, type Logger } from '../../client/index.js';
import { normalizeDomain } from './names.js';
import type { DnsView } from './records.js';
import { TcpFramer } from './tcp-framing.js';
import { handleMessage, type Reply } from './wire.js';

export interface DnsServerOptions {
  host: string;
  /** 0 picks a free port, the same number for UDP and TCP. */
  port: number;
  view: DnsView;
  /** The cluster domain, e.g. `cluster.local`. */
  domain: string;
  logger?: Logger;
  /** A TCP connection with no complete query for this long is closed (RFC 7766 suggests seconds). */
  tcpIdleTimeoutMs?: number;
  /** Beyond this many open TCP connections new ones are refused, so sockets cannot be exhausted. */
  maxTcpConnections?: number;
  /** The UDP socket's receive buffer: what absorbs a burst while the event loop is busy (the kernel may cap it). */
  udpReceiveBufferBytes?: number;
}

export interface DnsServerStats {
  /** Messages that were queries (answered, malformed or not), over either transport. */
  queries: number;
  udpQueries: number;
  tcpQueries: number;
  /** Answers per rcode, FORMERR and SERVFAIL included. */
  rcodes: Record<string, number>;
  /** Messages that could not be read: answered FORMERR when they had a header, dropped otherwise. */
  malformed: number;
  /** Answers sent with the TC bit: too big for the UDP size, or (rarely) for a TCP message. */
  truncated: number;
  /** Lookups that threw (answered SERVFAIL) and socket errors. */
  errors: number;
  /** TCP connections accepted since the start, and open now. */
  tcpConnections: number;
  openTcpConnections: number;
}

export interface DnsServer {
  host: string;
  port: number;
  stats: DnsServerStats;
  close(): Promise<void>;
}

const DEFAULT_TCP_IDLE_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_TCP_CONNECTIONS = 1_000;
/** Attempts at finding a free port for both transports when the caller asks for any. */
const PORT_ATTEMPTS = 20;
/** About 2,000 queries of headroom; Linux's default (208 KiB) drops bursts of a few thousand a second. */
const DEFAULT_UDP_RECEIVE_BUFFER_BYTES = 1 << 20;
/** Queries one TCP connection gets answered before the event loop turns to the others. */
const TCP_ANSWERS_PER_TURN = 16;

export async function startDnsServer(options: DnsServerOptions): Promise<DnsServer> {
  const domain = normalizeDomain(options.domain);
  const logger = options.logger ?? silentLogger;
  const stats: DnsServerStats = {
    queries: 0,
    udpQueries: 0,
    tcpQueries: 0,
    rcodes: {},
    malformed: 0,
    truncated: 0,
    errors: 0,
    tcpConnections: 0,
    openTcpConnections: 0,
  };

  const reply = (message: Buffer, transport: 'udp' | 'tcp'): Buffer | undefined => {
    const result: Reply = handleMessage(message, options.view, domain, transport);
    if (result.outcome === 'ignored') {
      stats.malformed++;
      return undefined;
    }
    stats.queries++;
    if (transport === 'udp') stats.udpQueries++;
    else stats.tcpQueries++;
    if (result.rcode) stats.rcodes[result.rcode] = (stats.rcodes[result.rcode] ?? 0) + 1;
    if (result.outcome === 'malformed') stats.malformed++;
    if (result.outcome === 'truncated') stats.truncated++;
    if (result.outcome === 'failed') {
      stats.errors++;
      logger.error('dns lookup failed', { error: result.error });
    }
    return result.message;
  };

  const { udp, tcp, port } = await bindBoth(options.host, options.port);
  const connections = new Set<Socket>();
  tcp.maxConnections = options.maxTcpConnections ?? DEFAULT_MAX_TCP_CONNECTIONS;

  try {
    udp.setRecvBufferSize(options.udpReceiveBufferBytes ?? DEFAULT_UDP_RECEIVE_BUFFER_BYTES);
  } catch (error) {
    logger.warn('dns udp receive buffer left at the system default', { error });
  }

  udp.on('message', (message, remote) => {
    const response = reply(message, 'udp');
    if (response) udp.send(response, remote.port, remote.address);
  });
  udp.on('error', (error) => {
    stats.errors++;
    logger.warn('dns udp socket error', { error });
  });

  const idleTimeoutMs = options.tcpIdleTimeoutMs ?? DEFAULT_TCP_IDLE_TIMEOUT_MS;
  tcp.on('connection', (socket) => {
    connections.add(socket);
    stats.tcpConnections++;
    stats.openTcpConnections++;
    serveConnection(
      socket,
      idleTimeoutMs,
      (message) => reply(message, 'tcp'),
      () => stats.malformed++,
    );
    socket.on('error', () => stats.errors++);
    socket.on('close', () => {
      connections.delete(socket);
      stats.openTcpConnections--;
    });
  });
  tcp.on('error', (error) => {
    stats.errors++;
    logger.warn('dns tcp server error', { error });
  });

  logger.info('cluster dns serving', { host: options.host, port, domain });
  return {
    host: options.host,
    port,
    stats,
    close: async () => {
      for (const socket of connections) socket.destroy();
      await Promise.all([new Promise<void>((resolve) => tcp.close(() => resolve())), new Promise<void>((resolve) => udp.close(() => resolve()))]);
    },
  };
}

/**
 * Queries answered in order on one connection. A client that stops reading its answers stops
 * being read: at most one answer beyond the socket's buffer and one received chunk wait for it.
 * A client that pipelines thousands of queries gets a few answered per event-loop turn, so the
 * other connections and the UDP socket are served in between.
 */
function serveConnection(socket: Socket, idleTimeoutMs: number, reply: (message: Buffer) => Buffer | undefined, onBadFrame: () => void): void {
  const framer = new TcpFramer();
  let blockedOnWrite = false;
  let yielding = false;
  const holdReading = () => {
    if (!socket.isPaused()) socket.pause();
  };
  const carryOn = () => {
    if (blockedOnWrite || yielding || socket.destroyed) return;
    socket.resume();
    answerPending();
  };
  const answerPending = (): void => {
    for (let answered = 0; !blockedOnWrite && !yielding && !socket.destroyed; answered++) {
      if (answered === TCP_ANSWERS_PER_TURN) {
        yielding = true;
        holdReading();
        setImmediate(() => {
          yielding = false;
          carryOn();
        });
        return;
      }
      let message: Buffer | undefined;
      try {
        message = framer.next();
      } catch {
        onBadFrame();
        socket.destroy();
        return;
      }
      if (!message) return;
      const response = reply(message);
      if (!response) continue;
      const framed = Buffer.allocUnsafe(2 + response.length);
      framed.writeUInt16BE(response.length, 0);
      response.copy(framed, 2);
      if (!socket.write(framed)) {
        blockedOnWrite = true;
        holdReading();
        socket.once('drain', () => {
          blockedOnWrite = false;
          carryOn();
        });
      }
    }
  };
  socket.setNoDelay(true);
  socket.setTimeout(idleTimeoutMs, () => socket.destroy());
  socket.on('data', (chunk) => {
    framer.push(chunk);
    answerPending();
  });
}

/** UDP first (port 0 picks one), then TCP on the same number; another try when TCP's is taken. */
async function bindBoth(host: string, port: number): Promise<{ udp: UdpSocket; tcp: Server; port: number }> {
  const attempts = port === 0 ? PORT_ATTEMPTS : 1;
  let lastError: unknown;
  for (let attempt = 0; attempt < attempts; attempt++) {
    const udp = createSocket({ type: isIPv6(host) ? 'udp6' : 'udp4' });
    try {
      await new Promise<void>((resolve, reject) => {
        udp.once('error', reject);
        udp.bind(port, host, () => {
          udp.off('error', reject);
          resolve();
        });
      });
    } catch (error) {
      udp.close();
      throw error;
    }
    const boundPort = udp.address().port;
    const tcp = createServer({ pauseOnConnect: false });
    try {
      await new Promise<void>((resolve, reject) => {
        tcp.once('error', reject);
        tcp.listen({ port: boundPort, host, exclusive: true }, () => {
          tcp.off('error', reject);
          resolve();
        });
      });
      return { udp, tcp, port: boundPort };
    } catch (error) {
      lastError = error;
      udp.close();
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    }
  }
  throw lastError;
}
