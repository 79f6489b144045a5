// Gang scheduling in `drover server`: PodGroups with pods asking for GPUs on nodes registered
// without agents (binding is what is checked). Two nodes with example.com/gpu=4 each.
import assert from 'node:assert/strict';
import { before, beforeEach, describe, it } from 'node:test';
import { ApiClient } from '../src/client/index.js';
import { useCluster } from './support/cluster-fixture.js';
import { GangWatch } from './support/gang-watch.js';
import { readyNode } from './fixtures/nodes.js';
import { GPU, memberPod, podGroup, PODGROUPS, type MemberOptions } from './fixtures/gangs.js';
import { waitFor } from './support/wait-for.js';

// Nodes without agents never renew a Lease: keep the node lifecycle controller from tainting them.
const cluster = useCluster({ extraArgs: ['--node-monitor-grace-period', '3600'] });
const PODS = '/api/v1/namespaces/default/pods';

async function create(path: string, body: unknown): Promise<void> {
  const res = await cluster.api('POST', path, body);
  assert.equal(res.status, 201, JSON.stringify(res.body));
}

async function gang(name: string, minMember: number, pods: number, options: MemberOptions & { timeout?: number } = {}): Promise<string[]> {
  await create(PODGROUPS(), podGroup(name, { minMember, ...(options.timeout ? { scheduleTimeoutSeconds: options.timeout } : {}) }));
  const names = Array.from({ length: pods }, (_, i) => `${name}-${i}`);
  for (const pod of names) await create(PODS, memberPod(pod, name, options));
  return names;
}

async function nodeOf(name: string): Promise<string | undefined> {
  return (await cluster.api('GET', `${PODS}/${name}`)).body.spec?.nodeName;
}

async function boundCount(names: string[]): Promise<number> {
  return (await Promise.all(names.map(nodeOf))).filter(Boolean).length;
}

async function podGroupStatus(name: string): Promise<any> {
  return (await cluster.api('GET', `${PODGROUPS()}/${name}`)).body.status ?? {};
}

async function remove(names: string[]): Promise<void> {
  for (const name of names) await cluster.api('DELETE', `${PODS}/${name}?gracePeriodSeconds=0`);
  await waitFor(
    `${names.length} pods deleted`,
    async () => (await Promise.all(names.map(async (n) => (await cluster.api('GET', `${PODS}/${n}`)).status === 404))).every(Boolean),
    15_000,
  );
}

async function warnings(involved: string): Promise<string> {
  return cluster.kubectl([
    'get',
    'events',
    '--field-selector',
    `involvedObject.name=${involved},type=Warning`,
    '-o',
    'jsonpath={range .items[*]}{.reason}: {.message}{"\\n"}{end}',
  ]);
}

describe('gang scheduling', () => {
  before(async () => {
    for (const name of ['g1', 'g2']) await create('/api/v1/nodes', readyNode(name, { extended: { [GPU]: '4' } }));
  });

  // A test that failed half-way must not leave its pods holding GPUs for the next one.
  beforeEach(async () => {
    await cluster.api('DELETE', `${PODS}?gracePeriodSeconds=0`);
    await waitFor('no pods left', async () => (await cluster.api('GET', PODS)).body.items?.length === 0, 15_000);
  });

  it('binds one of two 6-GPU gangs whole and keeps the other waiting with the reason until the first is gone', async () => {
    await create(PODGROUPS(), podGroup('a', { minMember: 3 }));
    await create(PODGROUPS(), podGroup('b', { minMember: 3 }));
    for (let i = 0; i < 3; i++) for (const g of ['a', 'b']) await create(PODS, memberPod(`${g}-${i}`, g, { gpus: 2 }));
    const a = ['a-0', 'a-1', 'a-2'];
    const b = ['b-0', 'b-1', 'b-2'];
    const [winner, loser] = await waitFor(
      'one gang bound whole',
      async () => {
        const [ba, bb] = [await boundCount(a), await boundCount(b)];
        return ba === 3 ? [a, b] : bb === 3 ? [b, a] : undefined;
      },
      15_000,
    );
    const loserGroup = loser[0]!.slice(0, 1);
    // Until its last member exists the group waits for members; then for capacity.
    const condition = await waitFor(
      'the waiting group says why',
      async () =>
        (await podGroupStatus(loserGroup)).conditions?.find(
          (c: { type: string; reason: string }) => c.type === 'Unschedulable' && c.reason === 'WaitingForCapacity',
        ),
      10_000,
    );
    assert.equal(condition.status, 'True');
    assert.match(condition.message, new RegExp(`pod group default/${loserGroup} needs example.com/gpu 6, 2 free now`));
    assert.equal(await boundCount(loser), 0, 'the waiting gang holds nothing bound');
    // The pod's own condition is written after the group's: an earlier attempt's message (members still coming) may show first.
    await waitFor(
      'the waiting pod says why',
      async () => {
        const pod = (await cluster.api('GET', `${PODS}/${loser[0]}`)).body;
        return /pod group default\/[ab] needs example.com\/gpu 6/.test(
          pod.status?.conditions?.find((c: { type: string }) => c.type === 'PodScheduled')?.message ?? '',
        );
      },
      10_000,
    );
    const winnerStatus = await waitFor(
      'winner Scheduled',
      async () => {
        const s = await podGroupStatus(winner[0]!.slice(0, 1));
        return s.phase === 'Scheduled' ? s : undefined;
      },
      10_000,
    );
    assert.equal(winnerStatus.scheduled, 3);
    assert.match(await cluster.kubectl(['get', 'podgroups']), /Scheduled\s+3/);
    // The scheduler runs on the control-plane thread; the server's /metrics carries its figures.
    const metrics = (await cluster.api('GET', '/metrics')).body as string;
    assert.match(metrics, /drover_scheduler_podgroup_schedule_attempts_total\{result="admitted"\} [1-9]/);
    assert.match(metrics, /drover_scheduler_podgroup_wait_seconds_count [1-9]/);
    assert.match(metrics, /drover_scheduler_podgroups\{phase="Scheduled"\} [1-9]/);
    await remove(winner);
    await waitFor('the second gang bound once the first is gone', async () => (await boundCount(loser)) === 3, 15_000);
    await remove(loser);
  });

  it('fails a gang larger than the cluster fast, and takes it back when a node joins', async () => {
    const huge = await gang('huge', 6, 6, { gpus: 2 });
    const status = await waitFor(
      'huge Failed',
      async () => {
        const s = await podGroupStatus('huge');
        return s.phase === 'Failed' ? s : undefined;
      },
      10_000,
    );
    assert.equal(status.conditions[0].reason, 'NotEnoughResources');
    assert.equal(status.conditions[0].message, 'pod group default/huge needs example.com/gpu 12, the cluster has 8 allocatable');
    assert.match(await warnings('huge'), /NotEnoughResources: pod group default\/huge needs example.com\/gpu 12, the cluster has 8 allocatable/);
    // One writer, and only when something changed: a settled status is not written again.
    const version = (await cluster.api('GET', `${PODGROUPS()}/huge`)).body.metadata.resourceVersion;
    await new Promise((r) => setTimeout(r, 1500));
    assert.equal((await cluster.api('GET', `${PODGROUPS()}/huge`)).body.metadata.resourceVersion, version);
    await create('/api/v1/nodes', readyNode('g3', { extended: { [GPU]: '4' } }));
    await waitFor('huge bound once the cluster is big enough', async () => (await boundCount(huge)) === 6, 15_000);
    await waitFor('huge Scheduled', async () => (await podGroupStatus('huge')).phase === 'Scheduled', 10_000);
    await remove(huge);
    assert.equal((await cluster.api('DELETE', '/api/v1/nodes/g3')).status, 200);
  });

  it('waits for its PodGroup, then places a gang whose pods came first', async () => {
    const names = ['w-0', 'w-1'];
    for (const name of names) await create(PODS, memberPod(name, 'w', { gpus: 1 }));
    await waitFor(
      'w-0 waits for its group',
      async () => {
        const pod = (await cluster.api('GET', `${PODS}/w-0`)).body;
        return pod.status?.conditions?.some((c: { message?: string }) => /pod group default\/w not found/.test(c.message ?? ''));
      },
      10_000,
    );
    await create(PODGROUPS(), podGroup('w', { minMember: 2 }));
    await waitFor('w bound once its PodGroup exists', async () => (await boundCount(names)) === 2, 10_000);
    await remove(names);
  });

  it('releases every place of a gang that cannot complete at its timeout', async () => {
    // The trial placement counts resources only, so a member with an impossible node selector
    // gets the gang admitted: three members wait holding places, the fourth finds none.
    await create(PODGROUPS(), podGroup('p', { minMember: 4, scheduleTimeoutSeconds: 2 }));
    const names = ['p-0', 'p-1', 'p-2'];
    for (const name of names) await create(PODS, memberPod(name, 'p', { gpus: 2 }));
    await create(PODS, memberPod('p-3', 'p', { gpus: 2, nodeSelector: { zone: 'nowhere' } }));
    await waitFor(
      'the timeout event',
      async () => /pod group default\/p: 3 of 4 members have places \(timed out after 2s\)/.test(await warnings('p-0')),
      15_000,
    );
    assert.equal(await boundCount([...names, 'p-3']), 0, 'no member was bound');
    await create(PODS, memberPod('plain-1', '', { gpus: 4, plain: true }));
    await create(PODS, memberPod('plain-2', '', { gpus: 4, plain: true }));
    await waitFor('the released places taken by plain pods', async () => (await boundCount(['plain-1', 'plain-2'])) === 2, 15_000);
    assert.equal(await boundCount([...names, 'p-3']), 0);
    await remove(['plain-1', 'plain-2', ...names, 'p-3']);
  });

  it('binds a replacement pod of a gang that has its quorum on its own', async () => {
    const names = await gang('r', 2, 3, { gpus: 1 });
    await waitFor('r bound', async () => (await boundCount(names)) === 3, 10_000);
    await remove(['r-2']);
    await create(PODS, memberPod('r-2', 'r', { gpus: 1 }));
    await waitFor('the replacement bound', () => nodeOf('r-2'), 10_000);
    await remove(names);
  });

  it('never leaves a gang partially bound under 50 concurrent gang submissions', async () => {
    const api = new ApiClient({ server: cluster.server().url, namespace: 'default', tls: cluster.server().tls }, { userAgent: 'gang-test' });
    const watch = new GangWatch(api, 'default');
    await watch.start();
    // The watch has teeth: a gang bound partially by hand (no scheduler takes its pods) is caught.
    await create(PODGROUPS(), podGroup('decoy', { minMember: 3 }));
    for (let i = 0; i < 3; i++) await create(PODS, memberPod(`decoy-${i}`, 'decoy', { gpus: 1, schedulerName: 'nobody' }));
    watch.expect('decoy', 3);
    await create(`${PODS}/decoy-0/binding`, {
      apiVersion: 'v1',
      kind: 'Binding',
      metadata: { name: 'decoy-0' },
      target: { apiVersion: 'v1', kind: 'Node', name: 'g1' },
    });
    await waitFor('the watch to flag the hand-bound partial gang', async () => watch.deadlocked.has('decoy'), 10_000);
    watch.finish('decoy');
    watch.deadlocked.delete('decoy');
    await remove(['decoy-0', 'decoy-1', 'decoy-2']);
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const gangs = Array.from({ length: 50 }, (_, i) => {
      const size = 1 + Math.floor(random() * 4);
      return { name: `s${i}`, size, minMember: Math.max(1, size - Math.floor(random() * 2)), gpus: 1 + Math.floor(random() * 2) };
    });
    for (const g of gangs) watch.expect(g.name, g.minMember);
    const started = Date.now();
    await Promise.all(gangs.map((g) => gang(g.name, g.minMember, g.size, { gpus: g.gpus })));
    // Each gang "runs" briefly once its quorum is bound, then goes, making room for the next.
    const done = new Set<string>();
    // The deletes are not awaited inside the poll (the next gangs need it to go on), but all are
    // before the test ends: one still in flight when the cluster stops would fail the file.
    const deletes: Promise<unknown>[] = [];
    await waitFor(
      'every gang bound once',
      async () => {
        for (const g of gangs) {
          if (done.has(g.name) || watch.fullyBound(g.name) === undefined) continue;
          done.add(g.name);
          watch.finish(g.name);
          deletes.push(...Array.from({ length: g.size }, (_, i) => cluster.api('DELETE', `${PODS}/${g.name}-${i}?gracePeriodSeconds=0`)));
        }
        return done.size === gangs.length;
      },
      180_000,
    );
    await Promise.all(deletes);
    await watch.stop();
    api.close();
    console.log(
      `50 gangs (${gangs.reduce((n, g) => n + g.size, 0)} pods) through 8 GPUs in ${((Date.now() - started) / 1000).toFixed(1)} s; ${watch.events} pod events checked`,
    );
    const describe = (name: string) => JSON.stringify(gangs.find((g) => g.name === name));
    const schedulerLog = cluster
      .server()
      .output()
      .split('\n')
      .filter((line) => line.includes('scheduler'))
      .slice(-20)
      .join('\n');
    assert.deepEqual(
      [...watch.deadlocked],
      [],
      `no gang stayed partially bound past 2 s: ${[...watch.deadlocked.keys()].map(describe).join(', ')}\n${schedulerLog}`,
    );
  });
});
