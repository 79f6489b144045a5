import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ServiceDirectory } from '../network/service-directory.js';
import { answer, type DnsView } from './records.js';
import { endpoint, MemoryDnsView, ports, service, slice } from '../../../test/support/agent/dns-view.js';

// The agent's ServiceDirectory is what the server reads in production.
const directoryIsAView = (directory: ServiceDirectory): DnsView => directory;
void directoryIsAView;

const view = new MemoryDnsView()
  .addService(service('default', 'ext', { type: 'ExternalName', externalName: 'db.example.com.', ports: ports({ name: 'pg', port: 5432, protocol: 'TCP' }) }))
  .addService(service('default', 'web', { clusterIP: '10.96.0.10', ports: ports({ name: 'http', port: 80 }) }))
  .addService(
    service('default', 'db', { clusterIP: 'None' }),
    slice('default', 'db', [endpoint('10.1.0.1', { hostname: 'db-0' })], [{ name: 'pg', port: 5432, protocol: 'TCP' }], 'a'),
    slice('default', 'db', [endpoint('10.1.0.1', { hostname: 'db-0' }), endpoint('10.1.0.2')], [{ name: 'pg', port: 5432, protocol: 'TCP' }], 'b'),
  );
const ask = (name: string, type: string) => answer({ name, type: type as 'A' }, view, 'Cluster.Local.');

test('an ExternalName Service is a CNAME whatever type is asked, and its named ports have SRV records', () => {
  assert.deepEqual(
    ask('ext.default.svc.cluster.local', 'AAAA').answers.map((a) => [a.type, 'data' in a ? a.data : '']),
    [['CNAME', 'db.example.com']],
  );
  const srv = ask('_pg._tcp.ext.default.svc.cluster.local', 'SRV');
  assert.deepEqual(
    srv.answers.map((a) => ('data' in a ? a.data : '')),
    [{ priority: 0, weight: 100, port: 5432, target: 'db.example.com' }],
  );
});

test('an address listed by two slices is answered once', () => {
  assert.deepEqual(
    ask('db.default.svc.cluster.local', 'A').answers.map((a) => ('data' in a ? a.data : '')),
    ['10.1.0.1', '10.1.0.2'],
  );
  assert.equal(ask('_pg._tcp.db.default.svc.cluster.local', 'SRV').answers.length, 2);
});

test('the parents of existing names are NODATA, not NXDOMAIN', () => {
  for (const name of [
    'cluster.local',
    'svc.cluster.local',
    'default.svc.cluster.local',
    'pod.cluster.local',
    'default.pod.cluster.local',
    '_tcp.web.default.svc.cluster.local',
  ]) {
    const result = ask(name, 'A');
    assert.deepEqual([result.rcode, result.answers.length, result.authority[0]?.type], ['NOERROR', 0, 'SOA'], name);
  }
  assert.equal(ask('_udp.web.default.svc.cluster.local', 'A').rcode, 'NXDOMAIN');
  assert.equal(ask('web-0.web.default.svc.cluster.local', 'A').rcode, 'NXDOMAIN', 'endpoint names exist for headless Services only');
});

test('a label over 63 octets or a name over 253 characters is FORMERR; another class is REFUSED', () => {
  assert.equal(ask(`${'a'.repeat(64)}.default.svc.cluster.local`, 'A').rcode, 'FORMERR');
  assert.equal(ask(`${'abcdefghi.'.repeat(25)}cluster.local`, 'A').rcode, 'FORMERR');
  assert.equal(answer({ name: 'web.default.svc.cluster.local', type: 'A', class: 'CH' }, view, 'cluster.local').rcode, 'REFUSED');
});
