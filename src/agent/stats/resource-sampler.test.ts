import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CgroupPaths, CgroupUsage } from './cgroup-usage.js';
import type { ContainerTarget } from './container-targets.js';
import { ResourceSampler } from './resource-sampler.js';
import { waitFor } from '../../../test/support/wait-for.js';

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
    id: `id-${name}`,
    namespace: 'ns',
    pod: name,
    uid: `uid-${name}`,
    container: 'app',
    startedAt,
    cgroups: { version: 2, cpu: `/x/${name}`, memory: `/x/${name}` },
  });
  return { read, target, set: (list: ContainerTarget[]) => (targets = list), targets: async () => targets };
}

describe('resource sampler', () => {
  it('a summary request samples on demand, so a container started since the last round has a figure', async () => {
    const host = fakeHost();
    const sampler = new ResourceSampler({
      nodeName: 'n1',
      targets: host.targets,
      readContainer: host.read,
      readNode: async () => ({ cpuNs: 1, memoryWorkingSetBytes: 2 }),
      freshMs: 0,
    });
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
    const sampler = new ResourceSampler({
      nodeName: 'n1',
      targets: host.targets,
      readContainer: host.read,
      readNode: async () => ({}),
      historySteps: 2,
      intervalMs: 1,
    });
    host.set([host.target('a'), host.target('b')]);
    const round = () => (sampler as unknown as { sample(r: string): Promise<void> }).sample('periodic');
    for (let i = 0; i < 4; i++) {
      await round();
      await new Promise((r) => setTimeout(r, 1100));
    }
    const history = sampler.history({ pod: 'a' });
    assert.deepEqual(
      history.pods.map((p) => p.podRef.name),
      ['a'],
    );
    assert.equal(history.pods[0]!.containers[0]!.points.length, 2);
    host.set([host.target('b')]);
    await round();
    assert.deepEqual(
      sampler.history().pods.map((p) => p.podRef.name),
      ['b'],
    );
  });
  it('a failed round prunes nothing: the series of every container stays', async () => {
    const host = fakeHost();
    let failing = false;
    const targets = async () => {
      if (failing) throw new Error('docker: connection reset');
      return host.targets();
    };
    const sampler = new ResourceSampler({ nodeName: 'n1', targets, readContainer: host.read, readNode: async () => ({}) });
    host.set([host.target('a')]);
    const round = () => (sampler as unknown as { sample(r: string): Promise<void> }).sample('periodic');
    await round();
    failing = true;
    await assert.rejects(round(), /connection reset/);
    assert.deepEqual(
      sampler.history().pods.map((p) => p.podRef.name),
      ['a'],
    );
  });

  it('a periodic tick during an on-demand round takes its own round after it: the step is in the history', async () => {
    const host = fakeHost();
    let release: (() => void) | undefined;
    const targets = async () => {
      // The on-demand round's listing waits until the periodic tick has been asked for.
      if (release === undefined) await new Promise<void>((resolve) => (release = resolve));
      return host.targets();
    };
    const sampler = new ResourceSampler({
      nodeName: 'n1',
      targets,
      readContainer: host.read,
      readNode: async () => ({ cpuNs: 1, memoryWorkingSetBytes: 2 }),
      freshMs: 0,
    });
    host.set([host.target('a')]);
    const sample = (round: string) => (sampler as unknown as { sample(r: string): Promise<void> }).sample(round);
    release = () => undefined;
    await sample('periodic');
    await new Promise((r) => setTimeout(r, 1100));
    release = undefined;
    const onDemand = sample('onDemand');
    await waitFor('the on-demand round to be listing', () => release !== undefined);
    const periodic = sample('periodic');
    release!();
    await Promise.all([onDemand, periodic]);
    const history = sampler.history();
    assert.equal(history.node.points.length, 1, 'the periodic step after the first');
    assert.equal(history.pods[0]?.containers[0]?.points.length, 1);
  });
});
