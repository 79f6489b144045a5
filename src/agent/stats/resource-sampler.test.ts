import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CgroupPaths, CgroupUsage } from './cgroup-usage.js';
import type { ContainerTarget } from './container-targets.js';
import { ResourceSampler } from './resource-sampler.js';

/** Counters that grow by 100 ms of CPU per read: a steady figure, whatever the clock says. */
function fakeHost() {
  let targets: ContainerTarget[] = [];
  const counters = new Map<string, number>();
  const read = async (paths: CgroupPaths): Promise<CgroupUsage> => {
    const key = paths.cpu ?? '';
    counters.set(key, (counters.get(key) ?? 0) + 1e8);
    return { cpuNs: counters.get(key)!, memoryWorkingSetBytes: 4096 };
  };
  const target = (name: string, startedAt = Date.now() - 2000): ContainerTarget => ({
    id: `id-${name}`, namespace: 'ns', pod: name, uid: `uid-${name}`, container: 'app', startedAt, cgroups: { version: 2, cpu: `/x/${name}`, memory: `/x/${name}` },
  });
  return { read, target, set: (list: ContainerTarget[]) => (targets = list), targets: async () => targets };
}

describe('resource sampler', () => {
  it('a summary request samples on demand, so a container started since the last round has a figure', async () => {
    const host = fakeHost();
    const sampler = new ResourceSampler({ nodeName: 'n1', targets: host.targets, readContainer: host.read, readNode: async () => ({ cpuNs: 1, memoryWorkingSetBytes: 2 }), freshMs: 0 });
    host.set([host.target('web')]);
    const summary = await sampler.summary();
    assert.equal(summary.node.nodeName, 'n1');
    const [pod] = summary.pods;
    assert.deepEqual(pod?.podRef, { namespace: 'ns', name: 'web', uid: 'uid-web' });
    const cpu = pod!.containers[0]!.cpu!;
    // 100 ms of CPU since its start two seconds ago: about 50m.
    assert.ok(cpu.usageNanoCores! > 40e6 && cpu.usageNanoCores! < 60e6, String(cpu.usageNanoCores));
    assert.ok(cpu.windowSeconds >= 2);
    assert.equal(pod!.containers[0]!.memory?.workingSetBytes, 4096);
  });

  it('keeps a bounded history per container and drops the series of pods gone', async () => {
    const host = fakeHost();
    const sampler = new ResourceSampler({ nodeName: 'n1', targets: host.targets, readContainer: host.read, readNode: async () => ({}), historySteps: 2, intervalMs: 1 });
    host.set([host.target('a'), host.target('b')]);
    const round = () => (sampler as unknown as { sample(r: string): Promise<void> }).sample('periodic');
    for (let i = 0; i < 4; i++) {
      await round();
      await new Promise((r) => setTimeout(r, 1100));
    }
    const history = sampler.history({ pod: 'a' });
    assert.deepEqual(history.pods.map((p) => p.podRef.name), ['a']);
    assert.equal(history.pods[0]!.containers[0]!.points.length, 2);
    host.set([host.target('b')]);
    await round();
    assert.deepEqual(sampler.history().pods.map((p) => p.podRef.name), ['b']);
  });
});
