// portforward.k8s.io over a SPDY session, as the kubelet serves it. For each local connection
// the client opens two streams carrying the headers `streamtype` (error | data), `port` and
// `requestid`: first the error stream (which it half-closes at once: only we write there), then
// the data stream. Once both are in, the data stream is joined to the pod's port; when that
// connection ends, both streams are closed, the error stream holding a message if it failed.
// The client reads the error stream to its end before it finishes the connection, so it must
// always be closed.

import type { SpdySession } from './spdy/session.js';
import type { SpdyStream } from './spdy/stream.js';
import type { PodConnection, PortDialer } from './port-dialer.js';
import type { ResolvedSandbox } from './resolver.js';

export const PORT_FORWARD_PROTOCOL = 'portforward.k8s.io';
/** How long the second stream of a pair may take to arrive. */
const PAIR_TIMEOUT_MS = 30_000;

interface StreamPair {
  requestId: string;
  data?: SpdyStream;
  error?: SpdyStream;
  timer: NodeJS.Timeout;
}

export interface PortForwardContext {
  target: ResolvedSandbox;
  dial: PortDialer;
  /** For messages: "namespace/name". */
  podName: string;
}

/** Why the client's stream is not acceptable, or undefined when it is. */
function invalidStream(stream: SpdyStream): string | undefined {
  const port = stream.header('port');
  if (!port) return 'the "port" header is required';
  if (!/^\d+$/.test(port) || Number(port) < 1 || Number(port) > 65535) return `unable to parse "${port}" as a port`;
  const type = stream.header('streamtype');
  if (type !== 'error' && type !== 'data') return type ? `invalid stream type "${type}"` : 'the "streamType" header is required';
  return undefined;
}

/**
 * Old clients send no request id; their streams come in consecutive pairs (error n, data n+2),
 * which is how the kubelet pairs them too.
 */
function requestIdOf(stream: SpdyStream): string {
  const given = stream.header('requestid');
  if (given) return given;
  return String(stream.header('streamtype') === 'error' ? stream.id : stream.id - 2);
}

export function servePortForward(session: SpdySession, context: PortForwardContext): void {
  const pairs = new Map<string, StreamPair>();
  const abandon = (pair: StreamPair) => {
    pairs.delete(pair.requestId);
    pair.error?.end(`timed out waiting for the data and error streams of request ${pair.requestId}`);
    pair.data?.end();
  };
  session.on('stream', (stream) => {
    stream.on('error', () => undefined);
    if (invalidStream(stream)) return stream.reset();
    stream.reply();
    const requestId = requestIdOf(stream);
    let pair = pairs.get(requestId);
    if (!pair) {
      const created: StreamPair = { requestId, timer: setTimeout(() => abandon(created), PAIR_TIMEOUT_MS) };
      pairs.set(requestId, (pair = created));
    }
    const kind = stream.header('streamtype') === 'error' ? 'error' : 'data';
    if (pair[kind]) return stream.reset();
    pair[kind] = stream;
    if (pair.data && pair.error) {
      clearTimeout(pair.timer);
      pairs.delete(requestId);
      void forward(pair.data, pair.error, context);
    }
  });
  session.on('close', () => {
    for (const pair of pairs.values()) clearTimeout(pair.timer);
    pairs.clear();
  });
}

async function forward(data: SpdyStream, errors: SpdyStream, context: PortForwardContext): Promise<void> {
  const port = Number(data.header('port'));
  const report = (why: string) => `error forwarding port ${port} to pod ${context.podName}: ${why}`;
  let connection: PodConnection;
  try {
    connection = await context.dial(context.target, port);
  } catch (error) {
    errors.end(report(error instanceof Error ? error.message : String(error)));
    data.end();
    return;
  }
  // The client went away (stream reset or connection lost): so does the pod side.
  data.once('close', () => connection.close());
  data.pipe(connection.toPod);
  connection.fromPod.pipe(data);
  await new Promise<void>((resolve) => {
    connection.fromPod.once('end', resolve);
    connection.fromPod.once('close', resolve);
  });
  const failure = await connection.failure();
  if (failure) errors.write(report(failure));
  errors.end();
}
