// A minimal DNS client over real sockets for the tests and the benchmark.
import { createSocket } from 'node:dgram';
import { connect } from 'node:net';
import dnsPacket from 'dns-packet';
import type { DecodedPacket, Packet, RecordType } from 'dns-packet';

/** dns-packet decodes the rcode but does not declare it. */
export type DnsReply = DecodedPacket & { rcode: string };

export function query(name: string, type: RecordType | 'ANY', options: { id?: number; udpPayloadSize?: number } = {}): Packet {
  return {
    type: 'query',
    id: options.id ?? Math.floor(Math.random() * 65536),
    flags: dnsPacket.RECURSION_DESIRED,
    questions: [{ name, type: type as RecordType, class: 'IN' }],
    additionals: options.udpPayloadSize
      ? [{ type: 'OPT', name: '.', udpPayloadSize: options.udpPayloadSize, extendedRcode: 0, ednsVersion: 0, flags: 0, flag_do: false, options: [] }]
      : [],
  };
}

/** Sends raw bytes over UDP; resolves with the raw reply, or undefined after `timeoutMs` of silence. */
export async function udpExchange(port: number, message: Buffer, timeoutMs = 2000): Promise<Buffer | undefined> {
  const socket = createSocket('udp4');
  try {
    return await new Promise<Buffer | undefined>((resolve, reject) => {
      const timer = setTimeout(() => resolve(undefined), timeoutMs);
      socket.once('message', (reply) => {
        clearTimeout(timer);
        resolve(reply);
      });
      socket.once('error', reject);
      socket.send(message, port, '127.0.0.1');
    });
  } finally {
    socket.close();
  }
}

export function decodeReply(message: Buffer): DnsReply {
  return dnsPacket.decode(message) as DnsReply;
}

export async function udpQuery(port: number, packet: Packet): Promise<DnsReply> {
  const reply = await udpExchange(port, dnsPacket.encode(packet));
  if (!reply) throw new Error('no UDP reply');
  return decodeReply(reply);
}

/** Sends every message on one TCP connection at once, then reads as many framed replies. */
export async function tcpExchange(port: number, messages: Buffer[], timeoutMs = 2000): Promise<Buffer[]> {
  const socket = connect(port, '127.0.0.1');
  try {
    return await new Promise<Buffer[]>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`only ${replies.length} of ${messages.length} TCP replies`)), timeoutMs);
      const replies: Buffer[] = [];
      let pending = Buffer.alloc(0);
      socket.on('data', (chunk) => {
        pending = Buffer.concat([pending, chunk]);
        while (pending.length >= 2 && pending.length >= 2 + pending.readUInt16BE(0)) {
          const length = pending.readUInt16BE(0);
          replies.push(pending.subarray(2, 2 + length));
          pending = pending.subarray(2 + length);
        }
        if (replies.length === messages.length) {
          clearTimeout(timer);
          resolve(replies);
        }
      });
      socket.once('error', reject);
      socket.once('close', () => reject(new Error(`connection closed after ${replies.length} of ${messages.length} TCP replies`)));
      socket.write(Buffer.concat(messages.map((m) => Buffer.concat([Buffer.from([m.length >> 8, m.length & 0xff]), m]))));
    });
  } finally {
    socket.destroy();
  }
}

export async function tcpQueries(port: number, packets: Packet[]): Promise<DnsReply[]> {
  const replies = await tcpExchange(
    port,
    packets.map((p) => dnsPacket.encode(p)),
  );
  return replies.map(decodeReply);
}
