// Service addresses against a real server on SQLite: each cluster IP and node port goes to one
// Service, however many are created at once, and a deleted Service's addresses are free again.
import { fetchWithTls } from '../../../test/support/client/raw-request.js';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { callJson, TestServer } from '../../../test/support/apiserver/in-process-server.js';
import { clusterNetwork, ipToNumber, type ClusterNetwork } from '../../api/cluster-network.js';

const SERVICES = '/api/v1/namespaces/default/services';

function service(name: string, spec: Record<string, unknown> = {}): Record<string, unknown> {
  return { apiVersion: 'v1', kind: 'Service', metadata: { name }, spec: { ports: [{ port: 80 }], ...spec } };
}

describe('service address allocation', () => {
  let server: TestServer;

  before(async () => {
    server = await TestServer.start();
  });
  after(async () => {
    await server?.stop();
  });

  const create = (body: Record<string, unknown>) => callJson(server.url, 'POST', SERVICES, body);

  it('gives concurrently created Services distinct cluster IPs and node ports', async () => {
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => create(service(`svc-${i}`, { type: 'NodePort' }))));
    assert.deepEqual(
      results.map((r) => r.status),
      results.map(() => 201),
    );
    const ips = results.map((r) => r.body.spec.clusterIP as string);
    const ports = results.map((r) => r.body.spec.ports[0].nodePort as number);
    assert.equal(new Set(ips).size, 40, `cluster IPs: ${ips.join(' ')}`);
    assert.equal(new Set(ports).size, 40, `node ports: ${ports.join(' ')}`);
    // Above the static bands (10.43.0.0-10.43.1.0 and 30000-30085), kept for addresses asked for.
    for (const ip of ips) assert.ok(ipToNumber(ip)! > ipToNumber('10.43.1.0')! && ipToNumber(ip)! < ipToNumber('10.43.255.255')!, ip);
    for (const port of ports) assert.ok(port >= 30086 && port <= 32767, `${port}`);
  });

  it("keeps a Service's own addresses on update, and gives node ports to one changed to NodePort", async () => {
    const created = await create(service('changer'));
    assert.equal(created.status, 201);
    const ip = created.body.spec.clusterIP as string;
    const put = await callJson(server.url, 'PUT', `${SERVICES}/changer`, { ...created.body, metadata: { ...created.body.metadata, labels: { a: 'b' } } });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    const patch = await fetchWithTls(`${server.url}${SERVICES}/changer`, server.adminTls, {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/merge-patch+json' },
      body: JSON.stringify({ spec: { type: 'NodePort' } }),
    });
    const changed = (await patch.json()) as { spec: { clusterIP: string; ports: Array<{ nodePort?: number }> } };
    assert.equal(patch.status, 200, JSON.stringify(changed));
    assert.equal(changed.spec.clusterIP, ip);
    const nodePort = changed.spec.ports[0]!.nodePort ?? 0;
    assert.ok(nodePort >= 30000 && nodePort <= 32767, `node port ${nodePort}`);
    const other = await create(service('other-nodeport', { type: 'NodePort', ports: [{ port: 80, nodePort }] }));
    assert.equal(other.status, 422, "the node port is the changed Service's now");
  });

  it('refuses an address another Service holds, with the field at fault, and frees it on delete', async () => {
    const first = await create(service('holder', { clusterIP: '10.43.0.101', type: 'NodePort', ports: [{ port: 80, nodePort: 30011 }] }));
    assert.equal(first.status, 201);
    const ip = await create(service('ip-taker', { clusterIP: '10.43.0.101' }));
    assert.equal(ip.status, 422);
    assert.equal(ip.body.details.causes[0].field, 'spec.clusterIPs');
    assert.match(ip.body.message, /provided IP is already allocated/);
    const port = await create(service('port-taker', { type: 'NodePort', ports: [{ port: 80, nodePort: 30011 }] }));
    assert.equal(port.status, 422);
    assert.equal(port.body.details.causes[0].field, 'spec.ports[0].nodePort');

    assert.equal((await callJson(server.url, 'DELETE', `${SERVICES}/holder`)).status, 200);
    // The allocator learns of the delete through a watch: soon, not necessarily at once.
    for (let attempt = 0; ; attempt++) {
      const again = await create(service('ip-taker', { clusterIP: '10.43.0.101', type: 'NodePort', ports: [{ port: 80, nodePort: 30011 }] }));
      if (again.status === 201) break;
      assert.ok(attempt < 50, `still refused: ${JSON.stringify(again.body)}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  });

  it('gives back what a refused or dry-run write reserved, so the address is free at once', async () => {
    const base = await create(service('immutable', { clusterIP: '10.43.0.201' }));
    assert.equal(base.status, 201);
    // Changing clusterIP is refused as immutable; the address it asked for must not stay taken.
    const refused = await callJson(server.url, 'PUT', `${SERVICES}/immutable`, {
      ...base.body,
      spec: { ...base.body.spec, clusterIP: '10.43.0.202', clusterIPs: ['10.43.0.202'] },
    });
    assert.equal(refused.status, 422, JSON.stringify(refused.body));
    const dryRun = await callJson(
      server.url,
      'POST',
      `${SERVICES}?dryRun=All`,
      service('dry', { clusterIP: '10.43.0.203', type: 'NodePort', ports: [{ port: 80, nodePort: 30022 }] }),
    );
    assert.equal(dryRun.status, 201);
    for (const [name, ip, nodePort] of [
      ['after-refused', '10.43.0.202', 30023],
      ['after-dry-run', '10.43.0.203', 30022],
    ] as const) {
      const taken = await create(service(name, { clusterIP: ip, type: 'NodePort', ports: [{ port: 80, nodePort }] }));
      assert.equal(taken.status, 201, `${name}: ${JSON.stringify(taken.body)}`);
    }
  });
});

/** A server on `network` for the tests of the describe that calls it; what creates a Service there. */
function createOnServer(network: ClusterNetwork) {
  let server: TestServer;
  before(async () => {
    server = await TestServer.start({ network });
  });
  after(async () => {
    await server?.close();
  });
  return (body: Record<string, unknown>) => callJson(server.url, 'POST', SERVICES, body);
}

describe("service address allocation keeps the range's static band for addresses asked for", () => {
  // A /24: its band is offsets 1-16 (Kubernetes' min(max(16, 256/16), 256)); the first ten are
  // the system's and .10 the cluster DNS's, so unasked picks come from .17-.254, then .11-.16.
  const create = createOnServer(clusterNetwork({ serviceCidr: '10.96.1.0/24' }));
  const lastOctet = (ip: string) => Number(ip.split('.')[3]);

  it('hands out above the band while it can, so a Service created last still gets an address in the band; then the band', async () => {
    const above: number[] = [];
    for (let i = 0; i < 238; i++) {
      const created = await create(service(`above-${i}`));
      assert.equal(created.status, 201, JSON.stringify(created.body));
      above.push(lastOctet(created.body.spec.clusterIP));
    }
    assert.deepEqual(
      above.sort((a, b) => a - b),
      Array.from({ length: 238 }, (_, i) => 17 + i),
    );
    const chosen = await create(service('well-known', { clusterIP: '10.96.1.15' }));
    assert.equal(chosen.status, 201, JSON.stringify(chosen.body));
    const band: number[] = [];
    for (let i = 0; i < 5; i++) {
      const created = await create(service(`band-${i}`));
      assert.equal(created.status, 201, JSON.stringify(created.body));
      band.push(lastOctet(created.body.spec.clusterIP));
    }
    assert.deepEqual(band, [11, 12, 13, 14, 16]);
    const full = await create(service('one-too-many'));
    assert.equal(full.status, 500, JSON.stringify(full.body));
  });
});

describe('service address allocation from a configured range', () => {
  // A /28: offsets 10 to 14 are handed out (0-9 are the system's, 15 is the broadcast address),
  // less the cluster DNS's, put at .12 here, past the first ten.
  const create = createOnServer(clusterNetwork({ serviceCidr: '10.96.0.0/28', clusterDns: '10.96.0.12' }));

  it('hands out the range past the first ten, never the DNS address, then says it is full', async () => {
    const ips: string[] = [];
    for (let i = 0; i < 4; i++) {
      const created = await create(service(`small-${i}`));
      assert.equal(created.status, 201, JSON.stringify(created.body));
      ips.push(created.body.spec.clusterIP as string);
    }
    assert.deepEqual(ips.sort(), ['10.96.0.10', '10.96.0.11', '10.96.0.13', '10.96.0.14']);
    const full = await create(service('one-too-many'));
    assert.equal(full.status, 500, JSON.stringify(full.body));
    assert.equal(full.body.reason, 'InternalError');
    assert.match(full.body.message, /failed to allocate a serviceIP: range is full/);
  });

  it('gives the DNS address to a Service that asks for it, and refuses one outside the range', async () => {
    const dns = await create(service('dns', { clusterIP: '10.96.0.12' }));
    assert.equal(dns.status, 201, JSON.stringify(dns.body));
    const outside = await create(service('outside', { clusterIP: '10.43.0.50' }));
    assert.equal(outside.status, 422, JSON.stringify(outside.body));
    assert.equal(outside.body.details.causes[0].field, 'spec.clusterIPs');
    assert.match(outside.body.message, /is not in the valid range\. The range of valid IPs is 10\.96\.0\.0\/28/);
  });
});
