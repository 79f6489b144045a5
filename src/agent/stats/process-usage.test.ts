// The sampler's targets and figures for the host-process runtime, on this host's real cgroups:
// a container that burns a CPU for two seconds shows CPU time in its own cgroup (on a loaded
// machine it may get far less than two seconds of it).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CLUSTER_LABEL, NODE_LABEL } from '../agent-labels.js';
import { harness, type Harness } from '../../../test/support/agent/process-runtime.js';
import { readCgroupUsage } from './cgroup-usage.js';
import { runtimeTargets } from './container-targets.js';
import { waitFor } from '../../../test/support/wait-for.js';

const OWNER = { clusterId: `stats-${process.pid}`, nodeName: 'stats-node' };

describe('process runtime: container figures from its cgroups', { timeout: 30_000 }, () => {
  let h: Harness;
  let id = '';
  before(async () => {
    h = await harness('stats');
    id = await h.run('burn', {
      command: ['sh', '-c', 'end=$(($(date +%s)+2)); while [ $(date +%s) -lt $end ]; do :; done; sleep 60'],
      labels: { [CLUSTER_LABEL]: OWNER.clusterId, [NODE_LABEL]: OWNER.nodeName },
    });
  });
  after(() => h.cleanup());

  it('finds the running container with its cgroups, and reads its CPU time and working set', async (t) => {
    const status = await h.rt.inspectContainer(id);
    if (status.error !== '') return t.skip(`cgroups are not writable here: ${status.error}`);
    const targets = await runtimeTargets(() => [h.rt], OWNER)();
    const target = targets.find((x) => x.id === id);
    assert.ok(target, `the container among ${JSON.stringify(targets)}`);
    assert.deepEqual([target.namespace, target.pod, target.container], [h.pod.namespace, h.pod.name, 'burn']);
    const usage = await waitFor(
      'CPU time counted in its own cgroup',
      async () => {
        const read = await readCgroupUsage(target.cgroups);
        return (read.cpuNs ?? 0) > 0.2e9 ? read : undefined;
      },
      15_000,
    );
    assert.ok((usage.memoryWorkingSetBytes ?? 0) > 0, `a working set: ${JSON.stringify(usage)}`);
  });
});
