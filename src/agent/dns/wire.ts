// One DNS message in, one out: decoding, the response's header bits, EDNS0 and truncation.
// Transport-free, so UDP and TCP share it and nothing a client sends can throw past it.
import dnsPacket from 'dns-packet';
import type { Answer, OptAnswer, Packet } from 'dns-packet';
import { encodeResponse, type ResponseMessage } from './encode.js';
import { answer, type DnsView, type Rcode } from './records.js';

const HEADER_BYTES = 12;
const QR_BIT = 0x8000;
const RD_BIT = 0x0100;
const CD_BIT = 0x0010;
const OPCODE_QUERY = 0;
const RCODE_NUMBERS: Record<Rcode, number> = { NOERROR: 0, FORMERR: 1, SERVFAIL: 2, NXDOMAIN: 3, NOTIMP: 4, REFUSED: 5 };

/** RFC 1035's UDP ceiling for a client that says nothing of EDNS0. */
export const CLASSIC_UDP_LIMIT = 512;
/** What the server offers over EDNS0: the DNS flag day 2020 figure, safe from IP fragmentation. */
export const SERVER_UDP_PAYLOAD = 1232;
/** A TCP message's length is a 16-bit prefix. */
export const TCP_MESSAGE_LIMIT = 65535;

export type Outcome = 'answered' | 'truncated' | 'malformed' | 'unsupported' | 'failed' | 'ignored';

export interface Reply {
  /** Undefined when nothing should go back (a response, or a message too short to name its id). */
  message?: Buffer;
  outcome: Outcome;
  rcode?: Rcode | 'BADVERS';
  error?: unknown;
}

/** The reply to one message from a client; `udp` limits its size and may set the TC bit. */
export function handleMessage(message: Buffer, view: DnsView, domain: string, transport: 'udp' | 'tcp'): Reply {
  if (message.length < HEADER_BYTES) return { outcome: 'ignored' };
  const flags = message.readUInt16BE(2);
  // Answering a response could bounce between two servers for ever.
  if (flags & QR_BIT) return { outcome: 'ignored' };
  const opcode = (flags >> 11) & 0xf;
  if (opcode !== OPCODE_QUERY) return { outcome: 'unsupported', rcode: 'NOTIMP', message: headerOnly(message, 'NOTIMP') };

  let query: Packet;
  try {
    query = dnsPacket.decode(message);
  } catch (error) {
    return { outcome: 'malformed', rcode: 'FORMERR', message: headerOnly(message, 'FORMERR'), error };
  }
  const question = query.questions?.[0];
  const opts = (query.additionals ?? []).filter((record): record is OptAnswer => record.type === 'OPT');
  if (!question || query.questions!.length !== 1 || opts.length > 1) {
    return { outcome: 'malformed', rcode: 'FORMERR', message: headerOnly(message, 'FORMERR') };
  }
  const clientOpt = opts[0];
  if (clientOpt && clientOpt.ednsVersion > 0)
    return { outcome: 'unsupported', rcode: 'BADVERS', message: badVersion(message, query.id ?? 0, flags, question.name) };

  let result;
  try {
    result = answer(question, view, domain);
  } catch (error) {
    return { outcome: 'failed', rcode: 'SERVFAIL', message: headerOnly(message, 'SERVFAIL'), error };
  }

  const response: ResponseMessage = {
    id: query.id ?? 0,
    flags: (flags & (RD_BIT | CD_BIT)) | (result.authoritative ? dnsPacket.AUTHORITATIVE_ANSWER : 0) | RCODE_NUMBERS[result.rcode],
    question: { name: question.name, ...questionCodes(message) },
    answers: result.answers,
    authority: result.authority,
    additionals: clientOpt ? [...result.additionals, serverOpt()] : result.additionals,
  };
  const limit = transport === 'tcp' ? TCP_MESSAGE_LIMIT : udpLimit(clientOpt);
  try {
    const encoded = encodeResponse(response, limit);
    if (encoded) return { outcome: 'answered', rcode: result.rcode, message: encoded };
    return { outcome: 'truncated', rcode: result.rcode, message: truncate(response, clientOpt !== undefined, limit) };
  } catch (error) {
    return { outcome: 'failed', rcode: 'SERVFAIL', message: headerOnly(message, 'SERVFAIL'), error };
  }
}

/** The question's type and class as sent, so that any type echoes, including ones dns-packet cannot name. */
function questionCodes(message: Buffer): { type: number; class: number } {
  let offset = HEADER_BYTES;
  // dns-packet has read this name already, so its bounds hold.
  for (;;) {
    const length = message[offset]!;
    if (length === 0) {
      offset += 1;
      break;
    }
    if ((length & 0xc0) === 0xc0) {
      offset += 2;
      break;
    }
    offset += 1 + length;
  }
  return { type: message.readUInt16BE(offset), class: message.readUInt16BE(offset + 2) };
}

/** RFC 6891: a client's advertised size below 512 is read as 512; the server's own offer caps it. */
function udpLimit(clientOpt: OptAnswer | undefined): number {
  if (!clientOpt) return CLASSIC_UDP_LIMIT;
  return Math.max(CLASSIC_UDP_LIMIT, Math.min(clientOpt.udpPayloadSize, SERVER_UDP_PAYLOAD));
}

function serverOpt(): Answer {
  return { type: 'OPT', name: '.', udpPayloadSize: SERVER_UDP_PAYLOAD, extendedRcode: 0, ednsVersion: 0, flags: 0, flag_do: false, options: [] };
}

/**
 * The TC bit tells the client to ask again over TCP (RFC 2181 9): the answers that fit go with
 * it, for clients that make do with a part; authority and additionals are dropped.
 */
function truncate(response: ResponseMessage, withOpt: boolean, limit: number): Buffer {
  const shortened = (count: number): ResponseMessage => ({
    ...response,
    flags: response.flags | dnsPacket.TRUNCATED_RESPONSE,
    answers: response.answers.slice(0, count),
    authority: [],
    additionals: withOpt ? [serverOpt()] : [],
  });
  // The largest prefix of answers that fits, by bisection over whole encodings (a few per truncation).
  let fits = 0;
  let tooMany = response.answers.length + 1;
  while (tooMany - fits > 1) {
    const middle = (fits + tooMany) >> 1;
    if (encodeResponse(shortened(middle), limit)) fits = middle;
    else tooMany = middle;
  }
  // Header, question and OPT always fit: the question came in a message no larger than this one.
  return encodeResponse(shortened(fits), Math.max(limit, TCP_MESSAGE_LIMIT))!;
}

/**
 * RFC 6891 6.1.3: a client speaking an EDNS version above 0 is told BADVERS (extended rcode 16:
 * 1 in the OPT's upper bits, 0 in the header) and may retry with version 0.
 */
function badVersion(message: Buffer, id: number, flags: number, name: string): Buffer {
  const opt = { ...serverOpt(), extendedRcode: 1 } as Answer;
  return encodeResponse(
    { id, flags: flags & (RD_BIT | CD_BIT), question: { name, ...questionCodes(message) }, answers: [], authority: [], additionals: [opt] },
    TCP_MESSAGE_LIMIT,
  )!;
}

/** A reply of header alone, for a message whose question cannot be trusted or read. */
function headerOnly(message: Buffer, rcode: Rcode): Buffer {
  const flags = message.readUInt16BE(2);
  const reply = Buffer.alloc(HEADER_BYTES);
  reply.writeUInt16BE(message.readUInt16BE(0), 0);
  reply.writeUInt16BE(QR_BIT | (flags & 0x7800) | (flags & RD_BIT) | RCODE_NUMBERS[rcode], 2);
  return reply;
}
