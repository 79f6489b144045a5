// A CommandChannel over a WebSocket speaking v5.channel.k8s.io (or v4): each message is one
// stream's bytes behind a stream byte; see channel-protocol.ts.

import { PassThrough, Writable } from 'node:stream';
import { WebSocket } from 'ws';
import type { TerminalSize } from '../runtime/runtime.js';
import { Channel, V5_CHANNEL, decodeChannelMessage, encodeChannelMessage, parseTerminalSize } from './channel-protocol.js';
import type { CommandChannel } from './remote-command.js';
import { toBuffer } from './spdy/transports.js';
import type { KubeStatus } from './status.js';

export interface RequestedStreams {
  stdin: boolean;
  stdout: boolean;
  stderr: boolean;
  tty: boolean;
}

/** Bytes a client may have unsent before the container's output is held back. */
const HIGH_WATER = 1024 * 1024;
const CLOSE_GRACE_MS = 5_000;

function outputStream(ws: WebSocket, channel: number): Writable {
  return new Writable({
    write(chunk: Buffer, _encoding, callback) {
      if (ws.readyState !== WebSocket.OPEN) return callback();
      // Hold the next write until the message is on its way when the client reads slowly.
      const slow = ws.bufferedAmount > HIGH_WATER;
      ws.send(encodeChannelMessage(channel, chunk), { binary: true }, () => (slow ? callback() : undefined));
      if (!slow) callback();
    },
  });
}

export function websocketChannel(ws: WebSocket, protocol: string, wanted: RequestedStreams): CommandChannel {
  const stdin = wanted.stdin ? new PassThrough() : undefined;
  const resizeListeners: Array<(size: TerminalSize) => void> = [];
  const gone = new Promise<void>((resolve) => ws.once('close', () => resolve()));
  ws.on('error', () => ws.terminate());
  void gone.then(() => stdin?.end());
  ws.on('message', (raw, isBinary) => {
    if (!isBinary) return;
    const message = decodeChannelMessage(toBuffer(raw), protocol);
    if (message.kind === 'close') {
      if (message.channel === Channel.stdin) stdin?.end();
    } else if (message.kind === 'data' && message.channel === Channel.stdin) {
      if (stdin && !stdin.writableEnded && !stdin.write(message.data)) {
        ws.pause();
        stdin.once('drain', () => ws.resume());
      }
    } else if (message.kind === 'data' && message.channel === Channel.resize) {
      const size = parseTerminalSize(message.data);
      if (size) for (const listener of resizeListeners) listener(size);
    }
  });
  // The kubelet opens a session with an empty message on the first output stream, which older
  // clients wait for. v5 clients (client-go 1.30+) never needed it, and kubectl up to 1.32 reads
  // before it has set its streams up, so it would drop it with an "Unknown stream id" error line.
  if (protocol !== V5_CHANNEL) {
    const first = wanted.stdout ? Channel.stdout : wanted.stderr && !wanted.tty ? Channel.stderr : Channel.error;
    ws.send(encodeChannelMessage(first), { binary: true });
  }
  return {
    ...(stdin ? { stdin } : {}),
    ...(wanted.stdout ? { stdout: outputStream(ws, Channel.stdout) } : {}),
    ...(wanted.stderr && !wanted.tty ? { stderr: outputStream(ws, Channel.stderr) } : {}),
    onResize: (listener) => void resizeListeners.push(listener),
    gone,
    finish(status: KubeStatus) {
      if (ws.readyState !== WebSocket.OPEN) return;
      ws.send(encodeChannelMessage(Channel.error, Buffer.from(JSON.stringify(status))), { binary: true });
      ws.close(1000);
      setTimeout(() => ws.terminate(), CLOSE_GRACE_MS).unref();
    },
  };
}
