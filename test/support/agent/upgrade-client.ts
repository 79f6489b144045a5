// For tests: the client side of the upgrades kubectl makes, done by hand — a plain SPDY/3.1
// upgrade, and KEP-4006's WebSocket tunnel (whose sub-protocol `SPDY/3.1+portforward.k8s.io` no
// WebSocket library accepts as a token, so the handshake and framing are written out here).

import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { TestPeer } from './spdy-peer.js';

export interface UpgradeResponse {
  status: number;
  headers: Record<string, string>;
  /** The body of a refused upgrade. */
  body: string;
}

export interface UpgradedClient {
  response: UpgradeResponse;
  peer: TestPeer;
  socket: Socket;
}

/** Sends a request and reads the response head; whatever follows it goes to `rest`. */
function exchange(port: number, head: string, rest: (bytes: Buffer) => void): Promise<{ response: UpgradeResponse; socket: Socket }> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port }, () => socket.write(head));
    let buffered = Buffer.alloc(0);
    let response: UpgradeResponse | undefined;
    socket.on('error', reject);
    socket.on('data', (chunk: Buffer) => {
      if (response) return rest(chunk);
      buffered = Buffer.concat([buffered, chunk]);
      const end = buffered.indexOf('\r\n\r\n');
      if (end < 0) return;
      const [statusLine, ...lines] = buffered.subarray(0, end).toString().split('\r\n');
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      response = { status: Number(statusLine!.split(' ')[1]), headers, body: '' };
      const after = buffered.subarray(end + 4);
      if (response.status === 101) {
        resolve({ response, socket });
        if (after.length > 0) rest(after);
        return;
      }
      response.body = after.toString();
      socket.on('end', () => resolve({ response: response!, socket }));
    });
  });
}

export async function spdyUpgrade(port: number, method: string, path: string, protocols: string[]): Promise<UpgradedClient> {
  let peer: TestPeer | undefined;
  const pending: Buffer[] = [];
  const head = [
    `${method} ${path} HTTP/1.1`,
    'Host: agent',
    'Connection: Upgrade',
    'Upgrade: SPDY/3.1',
    'Content-Length: 0',
    ...protocols.map((p) => `X-Stream-Protocol-Version: ${p}`),
  ];
  const { response, socket } = await exchange(port, `${head.join('\r\n')}\r\n\r\n`, (bytes) => (peer ? peer.receive(bytes) : pending.push(bytes)));
  peer = new TestPeer((bytes) => socket.write(bytes));
  for (const bytes of pending) peer.receive(bytes);
  return { response, peer, socket };
}

/** A masked client frame (RFC 6455): binary unless told otherwise. */
export function clientFrame(payload: Buffer, opcode = 2): Buffer {
  const mask = randomBytes(4);
  const length = payload.length;
  let header: Buffer;
  if (length < 126) header = Buffer.from([0x80 | opcode, 0x80 | length]);
  else if (length < 65536) header = Buffer.from([0x80 | opcode, 0x80 | 126, length >> 8, length & 0xff]);
  else {
    header = Buffer.alloc(10);
    header[0] = 0x80 | opcode;
    header[1] = 0x80 | 127;
    header.writeBigUInt64BE(BigInt(length), 2);
  }
  return Buffer.concat([header, mask, Buffer.from(payload.map((byte, i) => byte ^ mask[i % 4]!))]);
}

/** Server frames (unmasked) from a byte stream; binary payloads go to `onBinary`. */
function serverFrames(onBinary: (payload: Buffer) => void): (chunk: Buffer) => void {
  let buffer = Buffer.alloc(0);
  return (chunk) => {
    buffer = Buffer.concat([buffer, chunk]);
    for (;;) {
      if (buffer.length < 2) return;
      let length = buffer[1]! & 0x7f;
      let offset = 2;
      if (length === 126) [length, offset] = [buffer.length >= 4 ? buffer.readUInt16BE(2) : Infinity, 4];
      else if (length === 127) [length, offset] = [buffer.length >= 10 ? Number(buffer.readBigUInt64BE(2)) : Infinity, 10];
      if (buffer.length < offset + length) return;
      const opcode = buffer[0]! & 0x0f;
      if (opcode === 2) onBinary(buffer.subarray(offset, offset + length));
      buffer = buffer.subarray(offset + length);
    }
  };
}

/** The KEP-4006 tunnel: SPDY frames in binary WebSocket messages, split at random places. */
export async function tunnelUpgrade(port: number, path: string, protocol = 'SPDY/3.1+portforward.k8s.io'): Promise<UpgradedClient> {
  let peer: TestPeer | undefined;
  const pending: Buffer[] = [];
  const key = randomBytes(16).toString('base64');
  const head = [
    `GET ${path} HTTP/1.1`,
    'Host: agent',
    'Connection: Upgrade',
    'Upgrade: websocket',
    `Sec-WebSocket-Key: ${key}`,
    'Sec-WebSocket-Version: 13',
    `Sec-WebSocket-Protocol: ${protocol}`,
  ];
  const read = serverFrames((payload) => (peer ? peer.receive(payload) : pending.push(payload)));
  const { response, socket } = await exchange(port, `${head.join('\r\n')}\r\n\r\n`, read);
  peer = new TestPeer((bytes) => {
    // Message boundaries mean nothing in the tunnel: split each write in two.
    const cut = Math.floor(bytes.length / 2);
    socket.write(clientFrame(bytes.subarray(0, cut)));
    socket.write(clientFrame(bytes.subarray(cut)));
  });
  for (const bytes of pending) peer.receive(bytes);
  return { response, peer, socket };
}
