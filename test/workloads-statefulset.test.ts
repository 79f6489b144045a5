// StatefulSets end to end: a real `drover up` (API server, scheduler, controllers and a Docker
// node, with its own pod network and cluster DNS) driven by the real kubectl. One OrderedReady
// set `web` with its headless Service goes through creation in order, DNS names, a deleted pod
// coming back under its name, a partitioned rolling update, rollout undo, OnDelete and a
// scale-down; a Parallel set shows that nothing waits there.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { kubectl, kubectlRaw, requireKubectl } from './support/kubectl.js';
import { reserveTestNetwork, type TestNetwork } from './support/test-network.js';
import { startUpProcess, waitForNodeReady, type UpProcess } from './support/up-process.js';
import { waitFor } from './support/wait-for.js';
import { ensureDocker } from './support/repo.js';
import { removeNodeObjects } from './support/agent/agent-cluster.js';

const IMAGE_1 = 'drover-test/busybox:1';
const IMAGE_2 = 'drover-test/busybox:2';

interface PodView {
  metadata: { name: string; uid: string; creationTimestamp: string; deletionTimestamp?: string; labels: Record<string, string> };
  spec: { hostname?: string; subdomain?: string; containers: Array<{ image: string }> };
  status: { phase?: string; podIP?: string; conditions?: Array<{ type: string; status: string; lastTransitionTime?: string }> };
}

function statefulSet(name: string, spec: Record<string, unknown> = {}, containerExtra: Record<string, unknown> = {}) {
  return {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name },
    spec: {
      serviceName: name,
      replicas: 3,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { terminationGracePeriodSeconds: 1, containers: [{ name: 'main', image: IMAGE_1, command: ['sleep', '3600'], ...containerExtra }] },
      },
      ...spec,
    },
  };
}

const readyAt = (pod: PodView) => pod.status.conditions?.find((c) => c.type === 'Ready' && c.status === 'True')?.lastTransitionTime;

describe('StatefulSets on drover up', { timeout: 300_000 }, () => {
  let cluster: UpProcess;
  let network: TestNetwork;
  const k = (args: string[], input?: string) => kubectl(cluster.kubeconfig, args, input === undefined ? { timeoutMs: 120_000 } : { input });
  const pods = async (app: string): Promise<PodView[]> => JSON.parse(await k(['get', 'pods', '-l', `app=${app}`, '-o', 'json'])).items;
  const live = async (app: string) => (await pods(app)).filter((p) => !p.metadata.deletionTimestamp);
  const byName = async (app: string) => new Map((await live(app)).map((p) => [p.metadata.name, p]));
  /** Exactly these pods, live and ready, with these images. */
  const settled = (app: string, want: Record<string, string>) =>
    waitFor(
      `${app}: ${JSON.stringify(want)}`,
      async () => {
        const current = await live(app);
        return current.length === Object.keys(want).length && current.every((p) => readyAt(p) && want[p.metadata.name] === p.spec.containers[0]!.image);
      },
      90_000,
    );

  before(async () => {
    requireKubectl();
    ensureDocker();
    network = reserveTestNetwork();
    cluster = await startUpProcess(`sts-${process.pid}`, { network });
    await waitForNodeReady(cluster);
  });

  after(async () => {
    if (!cluster) return;
    await kubectlRaw(cluster.kubeconfig, ['delete', 'statefulsets,services', '--all', '--wait=true', '--timeout=60s']);
    await kubectlRaw(cluster.kubeconfig, ['delete', 'pods', '--all', '--grace-period=1', '--wait=true', '--timeout=60s']);
    await cluster.stop();
    network?.release();
    await removeNodeObjects(cluster.nodeName);
  });

  it('creates web-0, web-1, web-2 in order, each after the one before is ready', async () => {
    const service = {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'web' },
      spec: { clusterIP: 'None', selector: { app: 'web' }, ports: [{ name: 'http', port: 80 }] },
    };
    await k(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [service, statefulSet('web')] }));
    // Sampled while they come up: a pod never exists before its predecessor is ready.
    let samples = 0;
    for (;;) {
      const current = await byName('web');
      samples++;
      for (const [i, name] of ['web-1', 'web-2'].entries()) {
        const before = current.get(`web-${i}`);
        if (current.has(name)) assert.ok(before && readyAt(before), `${name} exists while web-${i} is not ready (sample ${samples})`);
      }
      if (current.size === 3 && [...current.values()].every(readyAt)) break;
      assert.ok(samples < 600, 'the set never came up');
      await new Promise((r) => setTimeout(r, 100));
    }
    const up = await byName('web');
    for (const i of [1, 2]) {
      const created = Date.parse(up.get(`web-${i}`)!.metadata.creationTimestamp);
      assert.ok(created >= Date.parse(readyAt(up.get(`web-${i - 1}`)!)!), `web-${i} was created before web-${i - 1} became ready`);
    }
    const web0 = up.get('web-0')!;
    assert.equal(web0.spec.hostname, 'web-0');
    assert.equal(web0.spec.subdomain, 'web');
    assert.equal(web0.metadata.labels['statefulset.kubernetes.io/pod-name'], 'web-0');
    assert.equal(web0.metadata.labels['apps.kubernetes.io/pod-index'], '0');
    assert.match(web0.metadata.labels['controller-revision-hash']!, /^web-[bcdfghjklmnpqrstvwxz2456789]+$/);
    assert.match(await k(['rollout', 'status', 'sts/web', '--timeout=60s']), /partitioned roll out complete: 3 new pods have been updated/);
    const [header, row] = (await k(['get', 'sts'])).trim().split('\n');
    assert.deepEqual(header!.split(/\s{2,}/), ['NAME', 'READY', 'AGE']);
    assert.deepEqual(row!.split(/\s{2,}/).slice(0, 2), ['web', '3/3']);
    const status = JSON.parse(await k(['get', 'sts', 'web', '-o', 'jsonpath={.status}']));
    assert.equal(status.currentRevision, web0.metadata.labels['controller-revision-hash']);
    assert.equal(status.updateRevision, status.currentRevision);
    assert.deepEqual([status.replicas, status.readyReplicas, status.currentReplicas, status.updatedReplicas, status.availableReplicas], [3, 3, 3, 3, 3]);
    assert.match(await k(['get', 'controllerrevisions']), new RegExp(`${status.currentRevision}\\s+statefulset\\.apps/web\\s+1\\s`));
    assert.match(await k(['get', 'sts', 'web', '-o', 'wide']), new RegExp(`^web\\s+3/3\\s+\\S+\\s+main\\s+${IMAGE_1}$`, 'm'));
    assert.match(await k(['describe', 'sts', 'web']), /Pods Status:\s+3 Running \/ 0 Waiting \/ 0 Succeeded \/ 0 Failed/);
    assert.match(await k(['explain', 'sts.spec.podManagementPolicy']), /FIELD: podManagementPolicy <string>/);
    assert.match(await k(['get', 'all']), /statefulset\.apps\/web/);
  });

  it('each pod has a stable DNS name under the headless Service', async () => {
    const web0 = (await byName('web')).get('web-0')!;
    const lookup = async () => (await kubectlRaw(cluster.kubeconfig, ['exec', 'web-1', '--', 'nslookup', 'web-0.web.default.svc.cluster.local'])).stdout;
    await waitFor('web-0.web resolves to web-0', async () => (await lookup()).includes(`Address: ${web0.status.podIP}`), 20_000);
  });

  it('a deleted pod comes back under the same name', async () => {
    const old = (await byName('web')).get('web-1')!;
    await k(['delete', 'pod', 'web-1', '--wait=false']);
    const back = await waitFor(
      'web-1 recreated',
      async () => {
        const pod = (await byName('web')).get('web-1');
        return pod && pod.metadata.uid !== old.metadata.uid && readyAt(pod) ? pod : undefined;
      },
      60_000,
    );
    assert.equal(back.spec.hostname, 'web-1');
  });

  it('a rolling update with partition 1 updates only the ordinals from 1, from the highest down', async () => {
    await k(['patch', 'sts', 'web', '-p', '{"spec":{"updateStrategy":{"rollingUpdate":{"partition":1}}}}']);
    await k(['set', 'image', 'sts/web', `main=${IMAGE_2}`]);
    assert.match(await k(['rollout', 'status', 'sts/web', '--timeout=90s']), /partitioned roll out complete: 2 new pods have been updated/);
    await settled('web', { 'web-0': IMAGE_1, 'web-1': IMAGE_2, 'web-2': IMAGE_2 });
    const [web1, web2] = [(await byName('web')).get('web-1')!, (await byName('web')).get('web-2')!];
    assert.ok(Date.parse(web2.metadata.creationTimestamp) <= Date.parse(web1.metadata.creationTimestamp), 'web-2 was replaced before web-1');
    const status = JSON.parse(await k(['get', 'sts', 'web', '-o', 'jsonpath={.status}']));
    assert.notEqual(status.updateRevision, status.currentRevision, 'web-0 still runs the current revision');
    assert.deepEqual([status.currentReplicas, status.updatedReplicas], [1, 2]);
    // Partition 0 finishes the rollout: the update revision becomes the current one.
    await k(['patch', 'sts', 'web', '-p', '{"spec":{"updateStrategy":{"rollingUpdate":{"partition":0}}}}']);
    await settled('web', { 'web-0': IMAGE_2, 'web-1': IMAGE_2, 'web-2': IMAGE_2 });
    await waitFor(
      'currentRevision = updateRevision',
      async () => {
        const s = JSON.parse(await k(['get', 'sts', 'web', '-o', 'jsonpath={.status}']));
        return s.currentRevision === s.updateRevision && s.currentReplicas === 3;
      },
      30_000,
    );
  });

  it('kubectl rollout history and undo restore the previous template', async () => {
    const history = await k(['rollout', 'history', 'sts/web']);
    assert.match(history, /^1\s+<none>$/m);
    assert.match(history, /^2\s+<none>$/m);
    assert.match(await k(['rollout', 'history', 'sts/web', '--revision=1']), new RegExp(`Image:\\s+${IMAGE_1}`));
    assert.match(await k(['rollout', 'undo', 'sts/web']), /rolled back/);
    await settled('web', { 'web-0': IMAGE_1, 'web-1': IMAGE_1, 'web-2': IMAGE_1 });
    const after = await k(['rollout', 'history', 'sts/web']);
    assert.match(after, /^2\s+<none>$/m);
    assert.match(after, /^3\s+<none>$/m);
    assert.doesNotMatch(after, /^1\s/m, 'revision 1 became revision 3');
    assert.equal((await k(['get', 'controllerrevisions', '-l', 'app=web', '-o', 'name'])).trim().split('\n').length, 2);
  });

  it('OnDelete changes no pod until one is deleted, which comes back at the new template', async () => {
    await k(['patch', 'sts', 'web', '--type=merge', '-p', '{"spec":{"updateStrategy":{"type":"OnDelete","rollingUpdate":null}}}']);
    const before = await byName('web');
    await k(['set', 'image', 'sts/web', `main=${IMAGE_2}`]);
    await waitFor(
      'the new update revision observed',
      async () => {
        const s = JSON.parse(await k(['get', 'sts', 'web', '-o', 'jsonpath={.status}']));
        return (
          s.observedGeneration === Number(await k(['get', 'sts', 'web', '-o', 'jsonpath={.metadata.generation}'])) && s.updateRevision !== s.currentRevision
        );
      },
      20_000,
    );
    await new Promise((r) => setTimeout(r, 3000));
    const still = await byName('web');
    assert.deepEqual([...still.values()].map((p) => p.metadata.uid).sort(), [...before.values()].map((p) => p.metadata.uid).sort(), 'no pod was replaced');
    await k(['delete', 'pod', 'web-0', '--wait=false']);
    await settled('web', { 'web-0': IMAGE_2, 'web-1': IMAGE_1, 'web-2': IMAGE_1 });
  });

  it('kubectl scale to 1 removes web-2, then web-1', async () => {
    await k(['scale', 'sts', 'web', '--replicas=1']);
    let samples = 0;
    for (;;) {
      const names = new Set((await pods('web')).map((p) => p.metadata.name));
      samples++;
      if (!names.has('web-1')) assert.ok(!names.has('web-2'), `web-1 went before web-2 (sample ${samples})`);
      if (names.size === 1) break;
      assert.ok(samples < 600, 'the set never scaled down');
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.deepEqual([...(await byName('web')).keys()], ['web-0']);
    await waitFor('READY 1/1', async () => /^web\s+1\/1\s/m.test(await k(['get', 'sts', 'web', '--no-headers'])), 20_000);
  });

  it('records the launch, the rolling update and the scale as Transactions', async () => {
    await waitFor(
      'launch, update and scale Succeeded',
      async () => {
        const transactions = await k(['get', 'transactions', '--no-headers']);
        return ['launch', 'update', 'scale'].every((operation) => new RegExp(`StatefulSet/web\\s+${operation}\\s+Succeeded`).test(transactions));
      },
      30_000,
    );
  });

  it('Parallel creates every pod at once, ready or not', async () => {
    // Never ready: an OrderedReady set would stop at par-0.
    const neverReady = { readinessProbe: { exec: { command: ['false'] }, periodSeconds: 1 } };
    await k(['apply', '-f', '-'], JSON.stringify(statefulSet('par', { podManagementPolicy: 'Parallel' }, neverReady)));
    await waitFor('par-0, par-1 and par-2', async () => (await live('par')).length === 3, 60_000);
    assert.equal((await live('par')).filter((p) => readyAt(p)).length, 0);
    await k(['delete', 'sts', 'par']);
    await waitFor('par pods gone', async () => (await pods('par')).length === 0, 60_000);
  });

  it("volumeClaimTemplates: each ordinal gets its claim, kept across the pod's replacement; whenScaled Delete removes the claims of removed pods", async () => {
    const claimTemplate = { metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '16Mi' } } } };
    const mount = { volumeMounts: [{ name: 'data', mountPath: '/data' }] };
    await k(
      ['apply', '-f', '-'],
      JSON.stringify(
        statefulSet(
          'db',
          {
            replicas: 2,
            volumeClaimTemplates: [claimTemplate],
            persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Delete' },
          },
          mount,
        ),
      ),
    );
    await settled('db', { 'db-0': IMAGE_1, 'db-1': IMAGE_1 });
    // The default class (local-path) gave each claim a volume on the pod's node.
    const phases = await k(['get', 'pvc', 'data-db-0', 'data-db-1', '-o', 'jsonpath={.items[*].status.phase}']);
    assert.equal(phases, 'Bound Bound');
    await k(['exec', 'db-0', '--', 'sh', '-c', 'echo kept > /data/mark']);
    const first = (await byName('db')).get('db-0')!.metadata.uid;
    await k(['delete', 'pod', 'db-0', '--wait=false']);
    await waitFor(
      'db-0 replaced and ready',
      async () => {
        const pod = (await byName('db')).get('db-0');
        return pod !== undefined && pod.metadata.uid !== first && readyAt(pod) !== undefined;
      },
      90_000,
    );
    assert.equal((await k(['exec', 'db-0', '--', 'cat', '/data/mark'])).trim(), 'kept', 'the new db-0 mounts the same claim');
    await k(['scale', 'sts', 'db', '--replicas=1']);
    await waitFor('data-db-1 deleted with db-1', async () => !(await k(['get', 'pvc', '-o', 'name'])).includes('data-db-1'), 90_000);
    await k(['delete', 'sts', 'db']);
    await waitFor('db pods gone', async () => (await pods('db')).length === 0, 60_000);
    assert.match(await k(['get', 'pvc', '-o', 'name']), /persistentvolumeclaim\/data-db-0/, 'whenDeleted Retain keeps the claim');
    await k(['delete', 'pvc', 'data-db-0']);
  });
});
