import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { connect } from 'node:net';
import dnsPacket from 'dns-packet';
import type { Answer, SoaAnswer, SrvAnswer } from 'dns-packet';
import { waitFor } from '../../../test/support/wait-for.js';
import { startDnsServer, type DnsServer } from './server.js';
import { decodeReply, query, tcpExchange, tcpQueries, udpExchange, udpQuery, type DnsReply } from '../../../test/support/agent/dns-client.js';
import { endpoint, MemoryDnsView, ports, service, slice } from '../../../test/support/agent/dns-view.js';

const DOMAIN = 'cluster.local';
const pgPort = [{ name: 'pg', port: 5432, protocol: 'TCP' }];

function clusterView(): MemoryDnsView {
  const view = new MemoryDnsView();
  view.addService(
    service('default', 'web', {
      clusterIP: '10.96.0.10',
      clusterIPs: ['10.96.0.10', 'fd00::10'],
      ports: ports({ name: 'http', port: 80, protocol: 'TCP' }, { name: 'dns', port: 53, protocol: 'UDP' }),
    }),
  );
  const dbEndpoints = [endpoint('10.1.0.1', { hostname: 'db-0' }), endpoint('10.1.0.2', { hostname: 'db-1' }), endpoint('10.1.0.3', { ready: false })];
  view.addService(service('default', 'db', { clusterIP: 'None', ports: ports({ name: 'pg', port: 5432 }) }), slice('default', 'db', dbEndpoints, pgPort));
  view.addService(service('default', 'db-all', { clusterIP: 'None', publishNotReadyAddresses: true }), slice('default', 'db-all', dbEndpoints, pgPort));
  view.addService(service('default', 'empty', { clusterIP: 'None' }));
  view.addService(service('default', 'ext', { type: 'ExternalName', externalName: 'example.com' }));
  const many = Array.from({ length: 100 }, (_, i) => endpoint(`10.2.${Math.floor(i / 250)}.${(i % 250) + 1}`));
  view.addService(service('apps', 'big', { clusterIP: 'None' }), slice('apps', 'big', many, pgPort));
  return view;
}

let server: DnsServer;
before(async () => {
  server = await startDnsServer({ host: '127.0.0.1', port: 0, view: clusterView(), domain: DOMAIN, tcpIdleTimeoutMs: 300 });
});
after(async () => {
  await server.close();
});

const ask = (name: string, type: Parameters<typeof query>[1] = 'A') => udpQuery(server.port, query(name, type));
const data = (records: Answer[] | undefined) => (records ?? []).map((r) => ('data' in r ? r.data : undefined));
const sorted = (values: unknown[]) => [...values].sort();

function assertNegative(reply: DnsReply, rcode: 'NOERROR' | 'NXDOMAIN'): void {
  assert.equal(reply.rcode, rcode);
  assert.deepEqual(reply.answers, []);
  const soa = reply.authorities?.[0] as SoaAnswer | undefined;
  assert.equal(soa?.type, 'SOA');
  assert.equal(soa?.name, DOMAIN);
  assert.equal(soa?.ttl, 5);
  assert.equal(soa?.data.minimum, 5);
}

test('a ClusterIP Service answers its IPv4 cluster IP, authoritatively, with TTL 5', async () => {
  const reply = await ask('web.default.svc.cluster.local');
  assert.equal(reply.rcode, 'NOERROR');
  assert.equal(reply.flag_aa, true);
  assert.equal(reply.flag_qr, true);
  assert.deepEqual(
    reply.answers?.map((a) => [a.type, a.name, 'ttl' in a ? a.ttl : 0, 'data' in a ? a.data : '']),
    [['A', 'web.default.svc.cluster.local', 5, '10.96.0.10']],
  );
});

test('a headless Service answers its ready endpoints, or all with publishNotReadyAddresses, and an empty one NODATA', async () => {
  assert.deepEqual(sorted(data((await ask('db.default.svc.cluster.local')).answers)), ['10.1.0.1', '10.1.0.2']);
  assert.deepEqual(sorted(data((await ask('db-all.default.svc.cluster.local')).answers)), ['10.1.0.1', '10.1.0.2', '10.1.0.3']);
  assertNegative(await ask('empty.default.svc.cluster.local'), 'NOERROR');
});

test('an ExternalName Service answers a CNAME to its external name, and resolves nothing further', async () => {
  const reply = await ask('ext.default.svc.cluster.local');
  assert.equal(reply.rcode, 'NOERROR');
  assert.deepEqual(
    reply.answers?.map((a) => [a.type, 'data' in a ? a.data : '']),
    [['CNAME', 'example.com']],
  );
});

test('SRV of a ClusterIP Service names the Service with its port, and its A record as an additional', async () => {
  const reply = await ask('_http._tcp.web.default.svc.cluster.local', 'SRV');
  assert.equal(reply.rcode, 'NOERROR');
  assert.deepEqual(data(reply.answers), [{ priority: 0, weight: 100, port: 80, target: 'web.default.svc.cluster.local' }]);
  assert.deepEqual(
    reply.additionals?.map((a) => [a.type, a.name, 'data' in a ? a.data : '']),
    [['A', 'web.default.svc.cluster.local', '10.96.0.10']],
  );
  const udp = await ask('_dns._udp.web.default.svc.cluster.local', 'SRV');
  assert.equal((udp.answers?.[0] as SrvAnswer).data.port, 53);
  assertNegative(await ask('_dns._tcp.web.default.svc.cluster.local', 'SRV'), 'NXDOMAIN');
  assertNegative(await ask('_http._tcp.web.default.svc.cluster.local', 'A'), 'NOERROR');
});

test('SRV of a headless Service names each ready endpoint by hostname or dashed address, with their A records', async () => {
  const reply = await ask('_pg._tcp.db.default.svc.cluster.local', 'SRV');
  assert.equal(reply.rcode, 'NOERROR');
  const targets = (reply.answers as SrvAnswer[]).map((a) => [a.data.target, a.data.port]);
  assert.deepEqual(sorted(targets.map((t) => t.join(':'))), ['db-0.db.default.svc.cluster.local:5432', 'db-1.db.default.svc.cluster.local:5432']);
  assert.deepEqual(sorted((reply.additionals ?? []).map((a) => `${a.name}=${'data' in a ? a.data : ''}`)), [
    'db-0.db.default.svc.cluster.local=10.1.0.1',
    'db-1.db.default.svc.cluster.local=10.1.0.2',
  ]);
  const all = await ask('_pg._tcp.db-all.default.svc.cluster.local', 'SRV');
  assert.ok((all.answers as SrvAnswer[]).some((a) => a.data.target === '10-1-0-3.db-all.default.svc.cluster.local'));
});

test('an endpoint of a headless Service answers under its hostname and under its dashed address', async () => {
  assert.deepEqual(data((await ask('db-1.db.default.svc.cluster.local')).answers), ['10.1.0.2']);
  assert.deepEqual(data((await ask('10-1-0-1.db.default.svc.cluster.local')).answers), ['10.1.0.1']);
  assertNegative(await ask('10-1-0-3.db.default.svc.cluster.local'), 'NXDOMAIN');
  assert.deepEqual(data((await ask('10-1-0-3.db-all.default.svc.cluster.local')).answers), ['10.1.0.3']);
  assertNegative(await ask('db-9.db.default.svc.cluster.local'), 'NXDOMAIN');
});

test('a pod name answers the address it spells, and a name that is no address is NXDOMAIN', async () => {
  assert.deepEqual(data((await ask('10-244-1-7.default.pod.cluster.local')).answers), ['10.244.1.7']);
  assertNegative(await ask('10-244-1-999.default.pod.cluster.local'), 'NXDOMAIN');
  assertNegative(await ask('10-244-1-7.default.pod.cluster.local', 'AAAA'), 'NOERROR');
});

test('AAAA and other types of an existing name are NODATA; an unknown name is NXDOMAIN; both carry the SOA', async () => {
  assertNegative(await ask('web.default.svc.cluster.local', 'AAAA'), 'NOERROR');
  assertNegative(await ask('db.default.svc.cluster.local', 'MX'), 'NOERROR');
  assertNegative(await ask('nope.default.svc.cluster.local'), 'NXDOMAIN');
  assertNegative(await ask('web.other.svc.cluster.local'), 'NXDOMAIN');
  assertNegative(await ask('a.b.c.d.e.f.cluster.local'), 'NXDOMAIN');
  assertNegative(await ask('default.svc.cluster.local'), 'NOERROR');
  const apex = await ask('cluster.local', 'SOA');
  assert.equal(apex.rcode, 'NOERROR');
  assert.equal(apex.answers?.[0]?.type, 'SOA');
});

test('names outside the cluster domain are REFUSED, never forwarded', async () => {
  for (const name of ['example.com', 'cluster.local.example.com', 'xcluster.local', '.']) {
    const reply = await ask(name);
    assert.equal(reply.rcode, 'REFUSED', name);
    assert.deepEqual(reply.answers, []);
    assert.equal(reply.flag_aa, false);
  }
});

test('matching ignores case and the answers echo the name as asked', async () => {
  const reply = await ask('WeB.DeFault.SVC.Cluster.Local.');
  assert.equal(reply.rcode, 'NOERROR');
  assert.equal(reply.questions?.[0]?.name, 'WeB.DeFault.SVC.Cluster.Local');
  assert.deepEqual(
    reply.answers?.map((a) => [a.name, 'data' in a ? a.data : '']),
    [['WeB.DeFault.SVC.Cluster.Local', '10.96.0.10']],
  );
  assert.deepEqual(data((await ask('DB-0.DB.default.svc.CLUSTER.local')).answers), ['10.1.0.1']);
});

test('an answer too big for UDP comes back truncated with TC, and whole over TCP', async () => {
  const name = 'big.apps.svc.cluster.local';
  const raw = (await udpExchange(server.port, dnsPacket.encode(query(name, 'A'))))!;
  assert.ok(raw.length <= 512, `${raw.length} bytes over UDP without EDNS0`);
  const udp = decodeReply(raw);
  assert.equal(udp.flag_tc, true);
  // Compressed owner names take 2 bytes, so an A record takes 16: 29 fit after header and question.
  assert.ok((udp.answers?.length ?? 0) >= 25 && (udp.answers?.length ?? 0) < 100, `${udp.answers?.length} answers`);
  const edns = await udpQuery(server.port, query(name, 'A', { udpPayloadSize: 4096 }));
  assert.equal(edns.flag_tc, true, 'the server caps the EDNS0 size it honours at 1232 bytes');
  assert.ok((edns.answers?.length ?? 0) > (udp.answers?.length ?? 0));
  assert.equal(edns.additionals?.find((a) => a.type === 'OPT')?.type, 'OPT');
  const [tcp] = await tcpQueries(server.port, [query(name, 'A')]);
  assert.equal(tcp?.flag_tc, false);
  assert.equal(tcp?.answers?.length, 100);
  assert.ok(server.stats.truncated >= 2);
});

test('several queries on one TCP connection are answered in order', async () => {
  const names = ['web.default.svc.cluster.local', 'nope.default.svc.cluster.local', 'example.com', 'db-0.db.default.svc.cluster.local'];
  const replies = await tcpQueries(
    server.port,
    names.map((name, i) => query(name, 'A', { id: 100 + i })),
  );
  assert.deepEqual(
    replies.map((r) => [r.id, r.rcode]),
    [
      [100, 'NOERROR'],
      [101, 'NXDOMAIN'],
      [102, 'REFUSED'],
      [103, 'NOERROR'],
    ],
  );
});

test('malformed messages get FORMERR when they have a header, are dropped otherwise, and the server keeps serving', async () => {
  const before = server.stats.malformed;
  assert.equal(await udpExchange(server.port, Buffer.from([1, 2, 3]), 200), undefined);
  const garbage = Buffer.concat([Buffer.from([0x12, 0x34, 0x01, 0x00, 0x00, 0x01, 0, 0, 0, 0, 0, 0]), Buffer.from([0x3f, 0x61])]);
  const formerr = decodeReply((await udpExchange(server.port, garbage))!);
  assert.deepEqual([formerr.id, formerr.rcode, formerr.flag_qr], [0x1234, 'FORMERR', true]);
  // Two questions in one query: allowed by the format, answered by nobody.
  const two = dnsPacket.encode({
    ...query('web.default.svc.cluster.local', 'A'),
    questions: [
      { name: 'a.cluster.local', type: 'A' },
      { name: 'b.cluster.local', type: 'A' },
    ],
  });
  assert.equal(decodeReply((await udpExchange(server.port, two))!).rcode, 'FORMERR');
  // A 64-octet label breaks RFC 1035's limit; the label-length bits make it unreadable.
  const longLabel = Buffer.concat([Buffer.from([0, 1, 0x01, 0, 0, 1, 0, 0, 0, 0, 0, 0, 64]), Buffer.alloc(64, 0x61), Buffer.from([0, 0, 1, 0, 1])]);
  assert.equal(decodeReply((await udpExchange(server.port, longLabel))!).rcode, 'FORMERR');
  // A response is never answered (two servers would echo for ever).
  const response = dnsPacket.encode({ ...query('web.default.svc.cluster.local', 'A'), type: 'response' });
  assert.equal(await udpExchange(server.port, response, 200), undefined);
  assert.ok(server.stats.malformed >= before + 4);
  // A TCP frame too short to be a query closes that connection only.
  await assert.rejects(tcpExchange(server.port, [Buffer.from([1, 2])], 1000));
  assert.equal((await ask('web.default.svc.cluster.local')).rcode, 'NOERROR');
});

test('an idle TCP connection is closed without blocking others', async () => {
  const idle = connect(server.port, '127.0.0.1');
  idle.write(Buffer.from([0, 40, 1, 2])); // half a frame, then silence
  const closed = new Promise<void>((resolve) => idle.on('close', () => resolve()));
  assert.equal((await ask('web.default.svc.cluster.local')).rcode, 'NOERROR');
  const [reply] = await tcpQueries(server.port, [query('web.default.svc.cluster.local', 'A')]);
  assert.equal(reply?.rcode, 'NOERROR');
  await closed; // the server's 300 ms idle timeout
});

test('a question of a type dns-packet cannot name (HTTPS, 65) is echoed as sent and answered NODATA', async () => {
  const wire = Buffer.from(dnsPacket.encode(query('web.default.svc.cluster.local', 'A', { id: 9 })));
  wire.writeUInt16BE(65, wire.length - 4);
  const raw = (await udpExchange(server.port, wire))!;
  assert.equal(raw.readUInt16BE(12 + 31), 65);
  assertNegative(decodeReply(raw), 'NOERROR');
});

test('a TCP client that sends thousands of queries and reads nothing neither stalls others nor stays', async () => {
  const bigQuery = dnsPacket.encode(query('big.apps.svc.cluster.local', 'A', { id: 1 }));
  const framed = Buffer.concat([Buffer.from([bigQuery.length >> 8, bigQuery.length & 0xff]), bigQuery]);
  const hog = connect(server.port, '127.0.0.1');
  hog.pause(); // never reads: the server's answers (1.6 KB each, 32 MB in all) outgrow the kernel's buffers
  hog.on('error', () => {});
  try {
    const tcpBefore = server.stats.tcpQueries;
    hog.write(Buffer.concat(Array.from({ length: 20_000 }, () => framed)));
    await waitFor('the hog connected', () => server.stats.openTcpConnections === 1, 2000);
    const started = performance.now();
    const [reply] = await tcpQueries(server.port, [query('web.default.svc.cluster.local', 'A')]);
    assert.equal(reply?.rcode, 'NOERROR');
    assert.ok(performance.now() - started < 1000, 'answered while the hog was being served');
    // A connection whose answers go unread makes no progress, and the idle timeout ends it.
    await waitFor('the hog closed by the server', () => server.stats.openTcpConnections === 0, 5000);
    assert.ok(server.stats.tcpQueries - tcpBefore < 20_000, `${server.stats.tcpQueries - tcpBefore} of the hog's queries were answered: the server held back`);
  } finally {
    hog.destroy();
  }
});

test('a query in EDNS version 1 is answered BADVERS, with the OPT record carrying the extended rcode', async () => {
  const packet = query('web.default.svc.cluster.local', 'A', { udpPayloadSize: 1232 });
  const opt = packet.additionals![0] as { ednsVersion: number };
  opt.ednsVersion = 1;
  const reply = await udpQuery(server.port, packet);
  assert.deepEqual(reply.answers, []);
  const answeredOpt = reply.additionals?.find((a) => a.type === 'OPT') as { extendedRcode: number; ednsVersion: number } | undefined;
  assert.deepEqual([reply.rcode, answeredOpt?.extendedRcode, answeredOpt?.ednsVersion], ['NOERROR', 1, 0]);
});
