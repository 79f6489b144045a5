// exec and attach over SPDY: how kubectl before 1.30 (and 1.32 when WebSockets are refused or
// KUBECTL_REMOTE_COMMAND_WEBSOCKETS=false) runs them. The client opens one SPDY stream per
// standard stream, naming it in the `streamtype` header (error, stdin, stdout, stderr, resize);
// stdin's end is the stream's FIN, so v4 and v5 behave alike here. The outcome is a JSON Status
// on the error stream, after which the connection closes.

import type { TerminalSize } from '../runtime/runtime.js';
import { parseTerminalSize } from './channel-protocol.js';
import type { CommandChannel } from './remote-command.js';
import type { SpdySession } from './spdy/session.js';
import type { SpdyStream } from './spdy/stream.js';
import type { KubeStatus } from './status.js';
import type { RequestedStreams } from './websocket-channel.js';

export const SPDY_COMMAND_PROTOCOLS: readonly string[] = ['v5.channel.k8s.io', 'v4.channel.k8s.io'];
const STREAM_TIMEOUT_MS = 30_000;

type StreamType = 'error' | 'stdin' | 'stdout' | 'stderr' | 'resize';

function expectedTypes(wanted: RequestedStreams): StreamType[] {
  const types: StreamType[] = ['error'];
  if (wanted.stdin) types.push('stdin');
  if (wanted.stdout) types.push('stdout');
  if (wanted.stderr && !wanted.tty) types.push('stderr');
  if (wanted.tty) types.push('resize');
  return types;
}

/** Resize messages are JSON objects back to back on one stream; they have no nesting. */
function watchResizes(stream: SpdyStream, listeners: Array<(size: TerminalSize) => void>): void {
  let text = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    text += chunk;
    for (let end = text.indexOf('}'); end >= 0; end = text.indexOf('}')) {
      const size = parseTerminalSize(text.slice(0, end + 1));
      text = text.slice(end + 1);
      if (size) for (const listener of listeners) listener(size);
    }
  });
}

function channelFrom(session: SpdySession, streams: Map<StreamType, SpdyStream>): CommandChannel {
  const resizeListeners: Array<(size: TerminalSize) => void> = [];
  const resize = streams.get('resize');
  if (resize) watchResizes(resize, resizeListeners);
  const stdin = streams.get('stdin');
  const stdout = streams.get('stdout');
  const stderr = streams.get('stderr');
  return {
    ...(stdin ? { stdin } : {}),
    ...(stdout ? { stdout } : {}),
    ...(stderr ? { stderr } : {}),
    onResize: (listener) => void resizeListeners.push(listener),
    gone: new Promise((resolve) => session.once('close', resolve)),
    finish(status: KubeStatus) {
      // GOAWAY only after the status and its FIN are out: the client reads the error stream to its end.
      const error = streams.get('error');
      if (error) error.end(JSON.stringify(status), () => session.close());
      else session.close();
    },
  };
}

/** Waits for the client's streams and makes a channel of them. */
export function spdyCommandChannel(session: SpdySession, wanted: RequestedStreams): Promise<CommandChannel> {
  const expected = expectedTypes(wanted);
  const streams = new Map<StreamType, SpdyStream>();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      session.close();
      reject(new Error(`timed out waiting for the client's streams (${expected.join(', ')})`));
    }, STREAM_TIMEOUT_MS);
    session.once('close', () => {
      clearTimeout(timer);
      reject(new Error('the client closed the connection before creating its streams'));
    });
    session.on('stream', (stream) => {
      stream.on('error', () => undefined);
      const type = stream.header('streamtype') as StreamType | undefined;
      if (!type || !expected.includes(type) || streams.has(type)) return stream.reset();
      stream.reply();
      streams.set(type, stream);
      if (streams.size < expected.length) return;
      clearTimeout(timer);
      resolve(channelFrom(session, streams));
    });
  });
}
