// Service addresses with two API servers on one etcd: each server's address book only advises,
// the claims in the store decide, so no address goes to two Services whichever server they
// were created through, and a deleted Service's address is free on every server.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { callJson, TestServer } from '../../../test/support/apiserver/in-process-server.js';
import { openEtcdStore, type EtcdStore } from '../../storage/etcd/etcd-store.js';
import { startEtcd, type EtcdMember } from '../../../test/support/storage/etcd-member.js';

const SERVICES = '/api/v1/namespaces/default/services';

function service(name: string, spec: Record<string, unknown> = {}): Record<string, unknown> {
  return { apiVersion: 'v1', kind: 'Service', metadata: { name }, spec: { ports: [{ port: 80 }], ...spec } };
}

describe('service addresses across API servers on one etcd', () => {
  let etcd: EtcdMember;
  const servers: TestServer<EtcdStore>[] = [];

  before(async () => {
    etcd = await startEtcd();
    const openStore = () => openEtcdStore({ endpoints: [etcd.endpoint], compactIntervalMs: 0, defrag: false });
    for (let i = 0; i < 2; i++) servers.push(await TestServer.start({ openStore }));
  });
  after(async () => {
    for (const server of servers) await server.close();
    await etcd?.cleanup();
  });

  const create = (server: number, body: Record<string, unknown>) => callJson(servers[server]!.url, 'POST', SERVICES, body);

  it('gives Services created at once through two servers distinct cluster IPs and node ports', async () => {
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => create(i % 2, service(`spread-${i}`, { type: 'NodePort' }))));
    assert.deepEqual(
      results.map((r) => r.status),
      results.map(() => 201),
      JSON.stringify(results.find((r) => r.status !== 201)?.body),
    );
    const ips = results.map((r) => r.body.spec.clusterIP as string);
    const ports = results.map((r) => r.body.spec.ports[0].nodePort as number);
    assert.equal(new Set(ips).size, 40, `cluster IPs: ${ips.join(' ')}`);
    assert.equal(new Set(ports).size, 40, `node ports: ${ports.join(' ')}`);
  });

  it('lets exactly one of two servers hand out one requested address', async () => {
    for (let round = 0; round < 5; round++) {
      // In the static bands, which the unasked picks of the test before leave alone.
      const spec = { clusterIP: `10.43.0.${201 + round}`, type: 'NodePort', ports: [{ port: 80, nodePort: 30010 + round }] };
      const results = await Promise.all([create(0, service(`twin-a-${round}`, spec)), create(1, service(`twin-b-${round}`, spec))]);
      assert.deepEqual(results.map((r) => r.status).sort(), [201, 422], JSON.stringify(results.map((r) => r.body)));
    }
  });

  it("frees a deleted Service's addresses for the other server", async () => {
    const spec = { clusterIP: '10.43.0.211', type: 'NodePort', ports: [{ port: 80, nodePort: 30050 }] };
    assert.equal((await create(0, service('first', spec))).status, 201);
    assert.equal((await create(1, service('second', spec))).status, 422);
    assert.equal((await callJson(servers[0]!.url, 'DELETE', `${SERVICES}/first`)).status, 200);
    let status = 0;
    for (let tries = 0; tries < 50 && status !== 201; tries++) {
      status = (await create(1, service('second', spec))).status;
      if (status !== 201) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.equal(status, 201);
  });

  it('does not let a dry run or a refused create keep an address', async () => {
    const spec = { clusterIP: '10.43.0.221' };
    const dry = await callJson(servers[0]!.url, 'POST', `${SERVICES}?dryRun=All`, service('dry', spec));
    assert.equal(dry.status, 201);
    let status = 0;
    for (let tries = 0; tries < 50 && status !== 201; tries++) {
      status = (await create(1, service('after-dry', spec))).status;
      if (status !== 201) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.equal(status, 201);
  });
});
