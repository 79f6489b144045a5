// The WebSocket channel protocols of exec and attach (k8s.io/apimachinery remotecommand).
// Every binary message starts with one byte naming its stream:
//   0 stdin · 1 stdout · 2 stderr · 3 error (a JSON Status: the outcome and exit code) ·
//   4 resize (JSON {"Width":w,"Height":h})
// v5.channel.k8s.io adds 255 CLOSE: `[255, id]` half-closes stream `id`. It is the only way a
// client can say "stdin is done" over a WebSocket, which `kubectl cp` into a pod depends on;
// kubectl 1.32 offers v5 alone on WebSockets (and falls back to SPDY when refused).

import type { TerminalSize } from '../runtime/runtime.js';

export const V5_CHANNEL = 'v5.channel.k8s.io';
export const V4_CHANNEL = 'v4.channel.k8s.io';
/** In order of preference. */
export const CHANNEL_PROTOCOLS: readonly string[] = [V5_CHANNEL, V4_CHANNEL];

export const Channel = {
  stdin: 0,
  stdout: 1,
  stderr: 2,
  error: 3,
  resize: 4,
  close: 255,
} as const;

export type ChannelMessage = { kind: 'data'; channel: number; data: Buffer } | { kind: 'close'; channel: number } | { kind: 'invalid'; reason: string };

/** The protocol to answer with: ours in preference order, among those the client offers. */
export function selectChannelProtocol(offered: Iterable<string>): string | undefined {
  const set = new Set([...offered].map((p) => p.trim()));
  return CHANNEL_PROTOCOLS.find((p) => set.has(p));
}

export function encodeChannelMessage(channel: number, data: Buffer = Buffer.alloc(0)): Buffer {
  const out = Buffer.allocUnsafe(data.length + 1);
  out[0] = channel;
  data.copy(out, 1);
  return out;
}

export function decodeChannelMessage(message: Buffer, protocol: string): ChannelMessage {
  if (message.length === 0) return { kind: 'invalid', reason: 'empty message' };
  const channel = message[0]!;
  if (channel === Channel.close) {
    if (protocol !== V5_CHANNEL) return { kind: 'invalid', reason: `stream close is not part of ${protocol}` };
    if (message.length !== 2) return { kind: 'invalid', reason: 'a close message names exactly one stream' };
    return { kind: 'close', channel: message[1]! };
  }
  return { kind: 'data', channel, data: message.subarray(1) };
}

/** A resize message's size; undefined when it is not one kubectl would send. */
export function parseTerminalSize(data: Buffer | string): TerminalSize | undefined {
  let value: unknown;
  try {
    value = JSON.parse(data.toString());
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const { Width: cols, Height: rows } = value as { Width?: unknown; Height?: unknown };
  if (!isDimension(cols) || !isDimension(rows)) return undefined;
  return { cols, rows };
}

function isDimension(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 0xffff;
}
