import assert from 'node:assert/strict';
import { test } from 'node:test';
import dnsPacket from 'dns-packet';
import type { Answer } from 'dns-packet';
import { encodeResponse, type ResponseMessage } from './encode.js';

const name = 'db.default.svc.cluster.local';
const message: ResponseMessage = {
  id: 7,
  flags: dnsPacket.AUTHORITATIVE_ANSWER | 3,
  question: { name: 'Db.Default.svc.cluster.local', type: 33, class: 1 },
  answers: [
    { type: 'SRV', name: 'Db.Default.svc.cluster.local', ttl: 5, data: { priority: 0, weight: 100, port: 5432, target: `db-0.${name}` } },
    { type: 'CNAME', name, ttl: 5, data: 'example.com' },
  ],
  authority: [
    {
      type: 'SOA',
      name: 'cluster.local',
      ttl: 5,
      data: { mname: 'ns.dns.cluster.local', rname: 'hostmaster.cluster.local', serial: 42, refresh: 7200, retry: 1800, expire: 86400, minimum: 5 },
    },
  ],
  additionals: [
    { type: 'A', name: `db-0.${name}`, ttl: 5, data: '10.1.0.1' },
    { type: 'OPT', name: '.', udpPayloadSize: 1232, extendedRcode: 0, ednsVersion: 0, flags: 0, flag_do: false, options: [] },
  ],
};

test('encodeResponse writes what dns-packet reads back, with compressed names', () => {
  const wire = encodeResponse(message, 65535)!;
  const decoded = dnsPacket.decode(wire) as ReturnType<typeof dnsPacket.decode> & { rcode: string };
  assert.deepEqual([decoded.id, decoded.flag_qr, decoded.flag_aa, decoded.rcode], [7, true, true, 'NXDOMAIN']);
  assert.deepEqual(decoded.questions, [{ name: 'Db.Default.svc.cluster.local', type: 'SRV', class: 'IN' }]);
  const strip = (records: Answer[] | undefined) => (records ?? []).map((r) => ('data' in r ? [r.type, r.name, r.ttl, r.data] : [r.type]));
  assert.deepEqual(strip(decoded.answers), strip([...message.answers]));
  assert.deepEqual(strip(decoded.authorities), strip([...message.authority]));
  assert.deepEqual(strip(decoded.additionals?.slice(0, 1)), strip(message.additionals.slice(0, 1)));
  assert.equal(decoded.additionals?.[1]?.type, 'OPT');
  assert.ok(
    wire.length <
      dnsPacket.encodingLength({
        ...message,
        type: 'response',
        questions: [{ name: message.question.name, type: 'SRV' }],
        authorities: [...message.authority],
        answers: [...message.answers],
        additionals: [...message.additionals],
      }),
  );
  // RFC 2782: the SRV target is written whole, never as a pointer.
  assert.ok(wire.includes(Buffer.from('\x04db-0\x02db\x07default\x03svc\x07cluster\x05local\x00', 'latin1')));
});

test('encodeResponse gives up, returning undefined, past the size it is allowed', () => {
  assert.equal(encodeResponse(message, 100), undefined);
  assert.ok(encodeResponse(message, 512));
});
