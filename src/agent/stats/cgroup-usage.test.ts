import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { cgroupPathsFrom, cgroupsOfProcess, cgroupVersionAt, readCgroupUsage } from './cgroup-usage.js';
import { cpuNsFromProcStat, readNodeUsage, workingSetFromMeminfo } from './node-usage.js';

// Fixture trees laid out as the kernel lays out cgroup v1 (one mount per controller, cpu and
// cpuacct co-mounted) and v2 (one unified tree), with the files' real formats.
const ID = 'b48005f592dd';
const V1_PROC_CGROUP = [
  '12:pids:/docker/' + ID,
  `4:memory:/docker/${ID}`,
  `3:cpu,cpuacct:/docker/${ID}`,
  '1:name=systemd:/docker/' + ID,
  `0::/docker/${ID}`,
  '',
].join('\n');
const V1_MEMORY_STAT =
  'cache 8192\nrss 20480\ninactive_file 4096\nactive_file 0\ntotal_cache 12288\ntotal_rss 20480\ntotal_inactive_file 8192\ntotal_active_file 4096\n';
const V2_PROC_CGROUP = `0::/system.slice/docker-${ID}.scope\n`;
const V2_CPU_STAT = 'usage_usec 1500250\nuser_usec 1000000\nsystem_usec 500250\nnr_periods 10\nnr_throttled 2\nthrottled_usec 700\n';
const V2_MEMORY_STAT = 'anon 20480\nfile 12288\nkernel 4096\nactive_anon 20480\ninactive_anon 0\nactive_file 4096\ninactive_file 8192\n';

async function put(path: string, text: string): Promise<void> {
  await mkdir(join(path, '..'), { recursive: true });
  await writeFile(path, text);
}

describe('cgroup figures', () => {
  let dir = '';
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'cgroup-usage-'));
    const v1 = join(dir, 'v1');
    await put(join(v1, 'memory', 'memory.limit_in_bytes'), '9223372036854771712\n');
    await put(join(v1, 'cpu,cpuacct', 'docker', ID, 'cpuacct.usage'), '33840035\n');
    await put(join(v1, 'memory', 'docker', ID, 'memory.usage_in_bytes'), '36864\n');
    await put(join(v1, 'memory', 'docker', ID, 'memory.stat'), V1_MEMORY_STAT);
    const v2 = join(dir, 'v2');
    await put(join(v2, 'cgroup.controllers'), 'cpuset cpu io memory pids\n');
    await put(join(v2, 'system.slice', `docker-${ID}.scope`, 'cpu.stat'), V2_CPU_STAT);
    await put(join(v2, 'system.slice', `docker-${ID}.scope`, 'memory.current'), '36864\n');
    await put(join(v2, 'system.slice', `docker-${ID}.scope`, 'memory.stat'), V2_MEMORY_STAT);
    await put(join(dir, 'proc', '41', 'cgroup'), V1_PROC_CGROUP);
    await put(join(dir, 'proc', 'stat'), 'cpu  3080453 1773 820555 3267291 35018 10 45239 1168 0 0\ncpu0 1 2 3 4 5 6 7 8 0 0\n');
    await put(
      join(dir, 'proc', 'meminfo'),
      'MemTotal:       16000000 kB\nMemFree:         4000000 kB\nMemAvailable:    9000000 kB\nInactive(file):  3000000 kB\n',
    );
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('tells v1 (and hybrid) from v2 by the root', async () => {
    assert.equal(await cgroupVersionAt(join(dir, 'v1')), 1);
    assert.equal(await cgroupVersionAt(join(dir, 'v2')), 2);
  });

  it("finds a v1 container's cpuacct and memory directories from /proc/<pid>/cgroup", () => {
    const paths = cgroupPathsFrom(V1_PROC_CGROUP, '/sys/fs/cgroup', 1);
    assert.deepEqual(paths, { version: 1, cpu: `/sys/fs/cgroup/cpu,cpuacct/docker/${ID}`, memory: `/sys/fs/cgroup/memory/docker/${ID}` });
  });

  it("finds a v2 container's one directory", () => {
    const dirName = `/sys/fs/cgroup/system.slice/docker-${ID}.scope`;
    assert.deepEqual(cgroupPathsFrom(V2_PROC_CGROUP, '/sys/fs/cgroup', 2), { version: 2, cpu: dirName, memory: dirName });
  });

  it('reads v1: cpuacct.usage in ns, working set = usage − total_inactive_file', async () => {
    const usage = await readCgroupUsage(cgroupPathsFrom(V1_PROC_CGROUP, join(dir, 'v1'), 1));
    assert.deepEqual(usage, { cpuNs: 33840035, memoryWorkingSetBytes: 36864 - 8192 });
  });

  it('reads v2: cpu.stat usage_usec × 1000, working set = memory.current − inactive_file', async () => {
    const usage = await readCgroupUsage(cgroupPathsFrom(V2_PROC_CGROUP, join(dir, 'v2'), 2));
    assert.deepEqual(usage, { cpuNs: 1500250000, memoryWorkingSetBytes: 36864 - 8192 });
  });

  it('leaves out a figure whose files are gone, and never goes below zero', async () => {
    assert.deepEqual(await readCgroupUsage({ version: 2, cpu: join(dir, 'v2', 'gone'), memory: join(dir, 'v2', 'gone') }), {});
  });

  it('drops the controllers a process shares with the agent (no cgroup of its own)', async () => {
    const root = join(dir, 'v1');
    const own = cgroupPathsFrom(`4:memory:/docker/${ID}\n3:cpu,cpuacct:/\n`, root, 1);
    const paths = await cgroupsOfProcess(41, root, 1, own, join(dir, 'proc'));
    assert.deepEqual(paths, { version: 1, cpu: join(root, 'cpu,cpuacct', 'docker', ID) });
    assert.equal(await cgroupsOfProcess(41, root, 1, cgroupPathsFrom(V1_PROC_CGROUP, root, 1), join(dir, 'proc')), undefined);
  });

  it('node: busy ticks of /proc/stat in ns, MemTotal − MemFree − Inactive(file)', async () => {
    const busyTicks = 3080453 + 1773 + 820555 + 10 + 45239 + 1168;
    assert.equal(cpuNsFromProcStat('cpu  3080453 1773 820555 3267291 35018 10 45239 1168 0 0\n'), busyTicks * 1e7);
    assert.equal(workingSetFromMeminfo('MemTotal: 100 kB\nMemFree: 40 kB\n'), 60 * 1024);
    assert.deepEqual(await readNodeUsage(join(dir, 'proc')), { cpuNs: busyTicks * 1e7, memoryWorkingSetBytes: 9_000_000 * 1024 });
  });
});
