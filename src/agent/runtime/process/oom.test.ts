import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { harness, type Harness } from '../../../../test/support/agent/process-runtime.js';

const MiB = 1024 * 1024;

describe('process runtime: cgroup limits', { timeout: 30_000 }, () => {
  let h: Harness;
  let writable = '';
  before(async () => {
    h = await harness('oom');
    // Probe with a container: cgroups are writable when its launch record names one.
    const id = await h.run('probe', { command: ['true'], resources: { memoryLimitBytes: 64 * MiB } });
    await h.rt.waitContainer(id);
    const status = await h.rt.inspectContainer(id);
    writable = status.error === '' ? 'yes' : status.error;
  });
  after(() => h.cleanup());

  it('a process past its memory limit is OOM-killed and reported so', async (t) => {
    if (writable !== 'yes') return t.skip(`cgroups are not writable here: ${writable}`);
    const id = await h.run('hog', {
      command: ['sh', '-c', 'x=$(head -c 64000000 /dev/zero | tr "\\0" a); echo survived'],
      resources: { memoryLimitBytes: 16 * MiB },
    });
    assert.equal(await h.rt.waitContainer(id), 137);
    const status = await h.rt.inspectContainer(id);
    assert.equal(status.oomKilled, true);
    assert.equal(status.exitCode, 137);
  });

  it('sets and updates the memory and cpu limits in place', async (t) => {
    if (writable !== 'yes') return t.skip(`cgroups are not writable here: ${writable}`);
    const id = await h.run('limits', { command: ['sleep', '30'], resources: { memoryLimitBytes: 64 * MiB, cpuLimitMillis: 500 } });
    const launch = JSON.parse(readFileSync(join(h.stateDir, 'containers', id, 'launch.json'), 'utf8')) as { cgroups: Record<string, string> };
    const layout = await h.rt.cgroups();
    const memory = launch.cgroups.memory ?? '';
    const memFile = layout.version === 2 ? 'memory.max' : 'memory.limit_in_bytes';
    const read = (dir: string, file: string): string => readFileSync(join(dir, file), 'utf8').trim();
    assert.equal(read(memory, memFile), String(64 * MiB));
    const { pid } = await h.rt.inspectContainer(id);
    assert.ok(read(memory, 'cgroup.procs').split('\n').includes(String(pid)), 'the process is in its cgroup');
    await h.rt.updateResources(id, { memoryLimitBytes: 128 * MiB, cpuLimitMillis: 1500 });
    assert.equal(read(memory, memFile), String(128 * MiB));
    if (layout.version === 1 && launch.cgroups.cpu) assert.equal(read(launch.cgroups.cpu, 'cpu.cfs_quota_us'), '150000');
    assert.equal((await h.rt.inspectContainer(id)).error, '');
    await h.rt.removeContainer(id, { force: true });
  });

  it('without writable cgroups a limit is a warning, not a failure', async () => {
    const { ProcessRuntime } = await import('./process-runtime.js');
    const rt = new ProcessRuntime({ stateDir: h.stateDir, cgroupRoot: '/nonexistent-cgroup-root' });
    const id = await rt.createContainer(h.spec('unlimited', { command: ['true'], resources: { memoryLimitBytes: 16 * MiB } }));
    await rt.startContainer(id);
    assert.equal(await rt.waitContainer(id), 0);
    assert.match((await rt.inspectContainer(id)).error, /^warning: resource limits not enforced/);
  });
});
