import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { metaTime, type KubeObject } from '../api/meta.js';
import { resources } from '../client/index.js';
import { dataCheckFindings } from './metrics.js';
import { addNode, addPod, findingLines, startCheckerBed, type CheckerBed } from '../../test/support/checker/checker-bed.js';
import { waitFor } from '../../test/support/wait-for.js';
import { freePort } from '../../test/support/free-port.js';

async function findingCount(kind: string): Promise<number> {
  return (await dataCheckFindings.get()).values.find((v) => v.labels['kind'] === kind)?.value ?? 0;
}

describe('data checker: finds and repairs inconsistencies made by hand', () => {
  let bed: CheckerBed;
  const uids: Record<string, string> = {};

  before(async () => {
    bed = await startCheckerBed();
    const { api } = bed;
    // Two nodes that report and one whose agent went silent five minutes ago: a minority.
    await addNode(api, 'n1');
    await addNode(api, 'n2');
    await addNode(api, 'silent', 5 * 60_000);
    // A pod bound to a node that does not exist.
    uids['orphan-bound'] = (await addPod(api, { name: 'orphan-bound', node: 'vanished' })).metadata.uid!;
    // Pods Running on the silent node: one of a ReplicaSet's, one of a DaemonSet's.
    const rsOwner = [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-rs', uid: 'rs-uid-that-exists', controller: true }];
    const rs = await api.resource(resources.replicasets, 'default').create({
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name: 'web-rs', namespace: 'default' },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: 'lost' } },
        template: { metadata: { labels: { app: 'lost' } }, spec: { containers: [{ name: 'c', image: 'x' }] } },
      },
    });
    rsOwner[0]!.uid = rs.metadata.uid!;
    await addPod(api, { name: 'lost-1', node: 'silent', runningIp: '10.0.9.1', owner: rsOwner });
    const ds = await api.resource(resources.daemonsets, 'default').create({
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: 'agentd', namespace: 'default' },
      spec: {
        selector: { matchLabels: { app: 'agentd' } },
        template: { metadata: { labels: { app: 'agentd' } }, spec: { containers: [{ name: 'c', image: 'x' }] } },
      },
    });
    await addPod(api, {
      name: 'daemon-1',
      node: 'silent',
      runningIp: '10.0.9.2',
      owner: [{ apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'agentd', uid: ds.metadata.uid!, controller: true }],
    });
    // A ConfigMap whose only owner is gone.
    await api.resource(resources.configmaps, 'default').create({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: 'leftover',
        namespace: 'default',
        ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'gone', uid: 'uid-of-a-deleted-deployment' }],
      },
    });
    // A Service with a ready pod whose Endpoints list nobody, and no EndpointSlices at all.
    await api.resource(resources.services, 'default').create({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'web', namespace: 'default' },
      spec: { selector: { app: 'web' }, ports: [{ port: 80, targetPort: 8080 }] },
    });
    await addPod(api, { name: 'web-1', node: 'n1', labels: { app: 'web' }, runningIp: '10.0.1.5' });
    await api
      .resource(resources.endpoints, 'default')
      .create({ apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'web', namespace: 'default' }, subsets: [] });
    // A second Service on another's cluster IP, written behind the address book's back.
    const alpha = await api.resource(resources.services, 'default').create({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'alpha', namespace: 'default' },
      spec: { ports: [{ port: 80 }] },
    });
    const clusterIP = (alpha['spec'] as { clusterIP: string }).clusterIP;
    await bed.server.store.create('/registry/services/default/twin', {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'twin', namespace: 'default', uid: 'twin-uid', creationTimestamp: metaTime() },
      spec: { clusterIP, clusterIPs: [clusterIP], ports: [{ port: 81, protocol: 'TCP', targetPort: 81 }], type: 'ClusterIP' },
    });
    // A Transaction Running an hour past its one-second life period.
    const txs = api.resource(resources.transactions, 'default');
    await txs.create({
      apiVersion: 'drover.dev/v1',
      kind: 'Transaction',
      metadata: { name: 'stuck', namespace: 'default' },
      spec: { target: { kind: 'Deployment', name: 'web' }, operation: 'scale', lifePeriodSeconds: 1 },
    });
    await txs.patch('stuck', 'merge', { status: { phase: 'Running', startTime: metaTime(new Date(Date.now() - 3600_000)) } }, { subresource: 'status' });
  });

  after(() => bed.close());

  it('reports every finding; without --repair only the nudges run', async () => {
    const before = await findingCount('PodOnMissingNode');
    const report = await bed.round(false);
    assert.equal(report.status?.phase, 'Completed', String(report.status?.['message']));
    assert.deepEqual(findingLines(report), [
      'DanglingOwnerReference leftover NotRepaired',
      'EndpointSliceMismatch web Repaired',
      'EndpointsMismatch web Repaired',
      'LostPod daemon-1 NoRepair',
      'LostPod lost-1 NotRepaired',
      'PodOnMissingNode orphan-bound NotRepaired',
      'ServiceAddressCollision alpha NoRepair',
      'ServiceAddressCollision twin NoRepair',
      'StuckTransaction stuck Repaired',
    ]);
    assert.equal(report.status?.['findingCount'], 9);
    assert.equal(report.status?.['repairedCount'], 3);
    assert.match(String(report.status?.['storeHash']), /^[0-9a-f]{16}$/);
    assert.equal(await findingCount('PodOnMissingNode'), before + 1);

    const { api } = bed;
    // Nudges: the Service and the Transaction were touched for their controllers.
    const web = await api.resource(resources.services, 'default').get('web');
    assert.ok(web.metadata.annotations?.['drover.dev/data-check-nudge']);
    const stuck = await api.resource(resources.transactions, 'default').get('stuck');
    assert.ok(stuck.metadata.annotations?.['drover.dev/data-check-nudge']);
    // Nothing that changes objects ran.
    await api.resource(resources.pods, 'default').get('orphan-bound');
    await api.resource(resources.configmaps, 'default').get('leftover');
    assert.equal((await api.resource(resources.pods, 'default').get('lost-1')).metadata.deletionTimestamp, undefined);

    // An Event per finding, on the object at fault.
    const events = (await api.resource(resources.events, 'default').listAll()).items;
    const reasons = (name: string) => events.filter((e) => (e['involvedObject'] as { name: string }).name === name).map((e) => e['reason']);
    assert.ok(reasons('orphan-bound').includes('PodOnMissingNode'));
    assert.ok(reasons('lost-1').includes('LostPod'));
    assert.ok(reasons('leftover').includes('DanglingOwnerReference'));
    assert.ok(reasons('stuck').includes('StuckTransaction'));
    // Every repair that ran is a Transaction.
    const repairs = (await api.resource(resources.transactions, 'default').listAll({ labelSelector: { 'drover.dev/operation': 'repair' } })).items;
    assert.deepEqual(repairs.map((tx) => (tx['spec'] as { target: { name: string } }).target.name).sort(), ['stuck', 'web', 'web']);
    assert.ok(repairs.every((tx) => (tx['status'] as { phase: string }).phase === 'Succeeded'));
  });

  it('with --repair deletes, marks lost and orphans; DaemonSet pods stay', async () => {
    const lostStates: KubeObject[] = [];
    const watch = bed.api.resource(resources.pods, 'default').watch({ name: 'lost-1' }, (event) => {
      if (event.type === 'MODIFIED' || event.type === 'DELETED') lostStates.push(event.object as KubeObject);
    });
    await watch.ready;
    const report = await bed.round(true);
    watch.stop();
    const lines = findingLines(report);
    for (const line of [
      'PodOnMissingNode orphan-bound Repaired',
      'LostPod lost-1 Repaired',
      'LostPod daemon-1 NoRepair',
      'DanglingOwnerReference leftover Repaired',
    ]) {
      assert.ok(lines.includes(line), `${line} in ${lines.join(' | ')}`);
    }
    const { api } = bed;
    const pods = api.resource(resources.pods, 'default');
    await assert.rejects(pods.get('orphan-bound'), /not found/);
    await assert.rejects(api.resource(resources.configmaps, 'default').get('leftover'), /not found/);
    // Marked Failed (NodeLost), a terminal pod is deleted at once: its ReplicaSet replaces it.
    await assert.rejects(pods.get('lost-1'), /not found/);
    const marked = lostStates.map((pod) => pod['status'] as { phase: string; reason?: string }).find((status) => status.reason === 'NodeLost');
    assert.equal(marked?.phase, 'Failed');
    const daemon = await pods.get('daemon-1');
    assert.equal(daemon.metadata.deletionTimestamp, undefined);

    // The next round finds none of the repaired ones again.
    const again = findingLines(await bed.round(true));
    assert.ok(!again.some((line) => /orphan-bound|lost-1|leftover/.test(line)), again.join(' | '));
  });
});

describe('data checker: never declares loss because it cannot see', () => {
  it('skips the round when most agents are silent', async () => {
    const bed = await startCheckerBed();
    try {
      await addNode(bed.api, 'quiet-1', 5 * 60_000);
      await addNode(bed.api, 'quiet-2', 5 * 60_000);
      await addNode(bed.api, 'alive');
      await addPod(bed.api, { name: 'p', node: 'quiet-1', runningIp: '10.0.0.7' });
      const report = await bed.round(true);
      assert.equal(report.status?.phase, 'Skipped');
      assert.match(String(report.status?.['message']), /2 of 3 node agents have not reported/);
      assert.deepEqual(findingLines(report), []);
      const pod = await bed.api.resource(resources.pods, 'default').get('p');
      assert.equal(pod.metadata.deletionTimestamp, undefined);
    } finally {
      await bed.close();
    }
  });

  it('skips the round when the store cannot be read', async () => {
    const { openSqliteStore } = await import('../storage/sqlite/sqlite-store.js');
    const { mkdtemp, rm } = await import('node:fs/promises');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const dir = await mkdtemp(join(tmpdir(), 'drover-checker-'));
    const closed = await openSqliteStore({ path: join(dir, 'state.db') });
    await closed.close();
    const bed = await startCheckerBed({ store: { store: closed, quickCheck: () => closed.quickCheck() } });
    try {
      const report = await bed.round(true);
      assert.equal(report.status?.phase, 'Skipped');
      assert.match(String(report.status?.['message']), /the store cannot be read/);
    } finally {
      await bed.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('data checker: the store', () => {
  it('finds two stored objects with one uid', async () => {
    const bed = await startCheckerBed();
    try {
      const copy = (name: string): KubeObject => ({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name, namespace: 'default', uid: 'same-uid', creationTimestamp: metaTime() },
      });
      await bed.server.store.create('/registry/configmaps/default/a', copy('a'));
      await bed.server.store.create('/registry/configmaps/default/b', copy('b'));
      const report = await bed.round(false);
      assert.deepEqual(findingLines(report), ['StoreInconsistency - NoRepair']);
      const events = (await bed.api.resource(resources.events).listAll()).items;
      assert.ok(events.some((e) => e['reason'] === 'StoreInconsistency' && (e['involvedObject'] as { kind: string }).kind === 'ConsistencyReport'));
    } finally {
      await bed.close();
    }
  });

  it('keeps only the newest reports', async () => {
    const bed = await startCheckerBed({ keepReports: 2 });
    try {
      for (let i = 0; i < 4; i++) await bed.round(false);
      const reports = api(bed);
      await waitFor('two reports kept', async () => (await reports()).length === 2, 5000);
    } finally {
      await bed.close();
    }
  });
});

function api(bed: CheckerBed): () => Promise<KubeObject[]> {
  return async () => (await bed.api.resource(resources.consistencyreports).listAll()).items;
}

describe('data checker: agents that do not answer', () => {
  it('count as unseen: with most of them silent the round is skipped', async () => {
    const bed = await startCheckerBed();
    try {
      // A port nothing listens on: the agents' endpoints refuse the connection.
      const port = await freePort();
      for (const name of ['deaf-1', 'deaf-2', 'fine']) {
        await addNode(bed.api, name);
        if (name === 'fine') continue;
        const status = { addresses: [{ type: 'InternalIP', address: '127.0.0.1' }], daemonEndpoints: { kubeletEndpoint: { Port: port } } };
        await bed.api.resource(resources.nodes).patch(name, 'merge', { status }, { subresource: 'status' });
      }
      const report = await bed.round(true);
      assert.equal(report.status?.phase, 'Skipped');
      assert.match(String(report.status?.['message']), /2 of 3 node agents have not reported for 40s or did not answer/);
    } finally {
      await bed.close();
    }
  });
});

describe('data checker: schedule and leadership', () => {
  it("runs scheduled rounds in the lease holder only, with the server's repair setting", async () => {
    const bed = await startCheckerBed({ intervalSeconds: 0.3, repair: true });
    const { DataChecker } = await import('./data-checker.js');
    const { silentLogger } = await import('../client/index.js');
    const second = new DataChecker({ api: bed.api, identity: 'second-server', intervalSeconds: 0.3, leaseDurationMs: 3000, logger: silentLogger });
    await second.start();
    try {
      const reports = api(bed);
      await waitFor(
        'three completed reports',
        async () => (await reports()).filter((r) => (r['status'] as { phase?: string } | undefined)?.phase === 'Completed').length >= 3,
        5000,
      );
      assert.equal(second.isLeader(), false);
      for (const report of await reports()) {
        assert.deepEqual(report['spec'], { trigger: 'Scheduled', repair: true });
        const checker = (report['status'] as { checker?: string } | undefined)?.checker;
        if (checker !== undefined) assert.equal(checker, 'test-server');
      }
    } finally {
      await second.stop();
      await bed.close();
    }
  });
});
