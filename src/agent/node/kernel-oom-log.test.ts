import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { KernelLog, kernelMessage } from './kernel-log.js';
import { oomKilledContainer, oomKilledContainers } from './kernel-oom-log.js';

const ID = 'eda9c17557fc1276539b86f464b4b7c87bdaf1045a49c224c4613c08f44864d2';

describe('kernel OOM log', () => {
  it("finds the container in the kernel's oom-kill record (cgroupfs and systemd drivers)", () => {
    const record = (memcg: string) =>
      `6,84650,2995074142,-;oom-kill:constraint=CONSTRAINT_MEMCG,nodemask=(null),cpuset=${ID},mems_allowed=0,oom_memcg=${memcg},task_memcg=${memcg},task=sh,pid=4240,uid=0`;
    const oom = (r: string) => oomKilledContainer(kernelMessage(r));
    assert.equal(oom(record(`/docker/${ID}`)), ID);
    assert.equal(oom(record(`/system.slice/docker-${ID}.scope`)), ID);
    assert.equal(oom(record('/user.slice/user-1000.slice/session-2.scope')), undefined);
    assert.equal(oom(`3,84651,2995074157,-;Memory cgroup out of memory: Killed process 4240 (sh) total-vm:20704kB`), undefined);
    assert.equal(oom(`6,84641,2988706966,-;docker0: port 5(vethe6ecd81) entered disabled state`), undefined);
  });

  it('reports a container the kernel OOM-killed, from the real /dev/kmsg', async () => {
    const log = new KernelLog();
    try {
      await log.read(); // what the kernel still remembers
      const id = execFileSync(
        'docker',
        [
          'run',
          '-d',
          '--label',
          'drover.dev/test=kernel-oom',
          '-m',
          '16m',
          '--memory-swap',
          '16m',
          'drover-test/busybox:1',
          'sh',
          '-c',
          'a=$(head -c 67108864 /dev/zero | tr "\\0" a); echo ${#a}',
        ],
        { encoding: 'utf8' },
      ).trim();
      try {
        execFileSync('docker', ['wait', id]);
        const killed = oomKilledContainers(await log.read());
        assert.ok(killed.includes(id), `the kernel's log names ${id}: got ${JSON.stringify(killed)}`);
        assert.deepEqual(oomKilledContainers(await log.read()), [], 'each record once');
      } finally {
        execFileSync('docker', ['rm', '-f', id]);
      }
    } finally {
      await log.stop();
    }
  });
});
