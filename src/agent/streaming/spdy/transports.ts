// A SPDY session over a raw upgraded socket (`Upgrade: SPDY/3.1`), or over a WebSocket whose
// binary messages carry the SPDY byte stream (KEP-4006's tunnel: message boundaries mean
// nothing, frames may be split across messages or share one).

import type { Duplex } from 'node:stream';
import { WebSocket, type RawData } from 'ws';
import { SpdySession, type SpdyTransport } from './session.js';

/** Bytes a WebSocket may hold unsent before writers are asked to wait. */
const WS_HIGH_WATER = 1024 * 1024;
/** A peer that does not finish closing within this is cut off. */
const CLOSE_GRACE_MS = 5_000;

function whenDrainedOrClosed(socket: Duplex): Promise<void> {
  if (!socket.writableNeedDrain || socket.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      socket.off('drain', done);
      socket.off('close', done);
      resolve();
    };
    socket.on('drain', done);
    socket.on('close', done);
  });
}

export function sessionOverSocket(socket: Duplex): SpdySession {
  const transport: SpdyTransport = {
    write: (data) => (socket.destroyed ? true : socket.write(data)),
    drained: () => whenDrainedOrClosed(socket),
    pause: () => socket.pause(),
    resume: () => socket.resume(),
    close: () => {
      socket.end();
      setTimeout(() => socket.destroy(), CLOSE_GRACE_MS).unref();
    },
  };
  const session = new SpdySession(transport);
  socket.on('data', (chunk: Buffer) => session.receive(chunk));
  // The peer finished sending: nothing more can arrive, so the session is over once what is
  // queued for it has gone out.
  socket.on('end', () => session.close());
  socket.on('error', () => socket.destroy());
  socket.on('close', () => session.transportClosed());
  return session;
}

export function toBuffer(data: RawData): Buffer {
  if (Buffer.isBuffer(data)) return data;
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.from(data);
}

export function sessionOverWebSocket(ws: WebSocket): SpdySession {
  let lastSend: Promise<void> = Promise.resolve();
  const transport: SpdyTransport = {
    write: (data) => {
      if (ws.readyState !== WebSocket.OPEN) return true;
      lastSend = new Promise((resolve) => ws.send(data, { binary: true }, () => resolve()));
      return ws.bufferedAmount < WS_HIGH_WATER;
    },
    drained: () => lastSend,
    pause: () => ws.pause(),
    resume: () => ws.resume(),
    close: () => {
      ws.close(1000);
      setTimeout(() => ws.terminate(), CLOSE_GRACE_MS).unref();
    },
  };
  const session = new SpdySession(transport);
  ws.on('message', (data, isBinary) => {
    // The tunnel carries only binary messages; anything else is not SPDY.
    if (!isBinary) return ws.close(1003, 'the SPDY tunnel carries binary messages only');
    session.receive(toBuffer(data));
  });
  ws.on('error', () => ws.terminate());
  ws.on('close', () => session.transportClosed());
  return session;
}
