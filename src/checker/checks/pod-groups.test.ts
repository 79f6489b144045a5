import assert from 'node:assert/strict';
import { it } from 'node:test';
import { resources } from '../../client/index.js';
import { useTestServer } from '../../../test/support/apiserver/use-test-server.js';
import { NUDGE_ANNOTATION } from '../live.js';
import { takeSnapshot } from '../snapshot.js';
import { podGroupCounts } from './pod-groups.js';

const bed = useTestServer();

async function podGroup(name: string, status: Record<string, unknown>): Promise<void> {
  const groups = bed.api.resource(resources.podgroups, 'default');
  await groups.create({ apiVersion: 'scheduling.x-k8s.io/v1alpha1', kind: 'PodGroup', metadata: { name }, spec: { minMember: 2 } });
  await groups.patch(name, 'merge', { status }, { subresource: 'status' });
}

async function member(name: string, group: string, node: string): Promise<void> {
  await bed.api.resource(resources.pods, 'default').create({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, labels: { 'scheduling.x-k8s.io/pod-group': group } },
    spec: { nodeName: node, containers: [{ name: 'c', image: 'drover-test/busybox:1' }] },
  });
}

it('finds PodGroups whose counts disagree with their member pods, and nudges them', async () => {
  await podGroup('right', { phase: 'Scheduled', scheduled: 2, running: 0, succeeded: 0, failed: 0 });
  await podGroup('wrong', { phase: 'Pending', scheduled: 0 });
  for (const g of ['right', 'wrong']) for (const i of [0, 1]) await member(`${g}-${i}`, g, 'n1');
  const findings = await podGroupCounts(await takeSnapshot(bed.api), { api: bed.api, options: { lostAfterMs: 40_000, settleMs: 0 } });
  assert.deepEqual(
    findings.map((f) => [f.kind, f.object?.name, f.message]),
    [['PodGroupCountsMismatch', 'wrong', 'PodGroup default/wrong status disagrees with its 2 member pod(s): scheduled 0, pods say 2']],
  );
  assert.equal(findings[0]!.repair?.nudge, true);
  assert.equal(await findings[0]!.repair!.run(bed.api), 'repaired');
  const nudged = await bed.api.resource(resources.podgroups, 'default').get('wrong');
  assert.ok(nudged.metadata.annotations?.[NUDGE_ANNOTATION]);
});

it('leaves groups alone while their pods are still settling', async () => {
  const findings = await podGroupCounts(await takeSnapshot(bed.api), { api: bed.api, options: { lostAfterMs: 40_000, settleMs: 60_000 } });
  assert.deepEqual(findings, []);
});
