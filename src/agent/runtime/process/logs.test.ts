import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { ProcessRuntime } from './process-runtime.js';
import { harness, logText, readAll, type Harness } from '../../../../test/support/agent/process-runtime.js';
import { waitFor } from '../../../../test/support/wait-for.js';

describe('process runtime: logs', { timeout: 30_000 }, () => {
  let h: Harness;
  let small: ProcessRuntime;
  before(async () => {
    h = await harness('logs');
    small = new ProcessRuntime({ stateDir: h.stateDir, cgroupParent: h.cgroupParent, maxLogBytes: 2000 });
  });
  after(() => h.cleanup());

  // Two pipes: the order between stdout and stderr holds only for writes some time
  // apart (as with Docker).
  it('keeps stdout and stderr in order, with tail, timestamps, since and stream selection', async () => {
    const id = await h.run('lines', {
      command: ['sh', '-c', 'for i in 1 2 3; do echo out$i; sleep 0.02; echo err$i >&2; sleep 0.02; done; printf no-newline'],
    });
    await h.rt.waitContainer(id);
    assert.equal(await logText(h.rt, id), 'out1\nerr1\nout2\nerr2\nout3\nerr3\nno-newline');
    assert.equal(await readAll(await h.rt.logs(id, { tail: 3 })), 'out3\nerr3\nno-newline');
    assert.equal(await readAll(await h.rt.logs(id, { tail: 3, stderr: false })), 'out3\nno-newline');
    assert.equal(await readAll(await h.rt.logs(id, { stdout: false })), 'err1\nerr2\nerr3\n');
    const stamped = (await readAll(await h.rt.logs(id, { timestamps: true, tail: 2 }))).split('\n');
    assert.match(stamped[0] ?? '', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z err3$/);
    const finished = (await h.rt.inspectContainer(id)).finishedAt ?? new Date();
    assert.equal(await readAll(await h.rt.logs(id, { since: new Date(finished.getTime() + 1000) })), '');
    assert.equal(await readAll(await h.rt.logs(id, { since: new Date(0) })), await logText(h.rt, id));
  });

  it('follow streams new lines as they come and ends when the container does', async () => {
    const id = await h.run('follow', { command: ['sh', '-c', 'echo first; sleep 0.3; echo second; printf "prompt> "; sleep 0.3; echo third'] });
    await waitFor('first line', async () => ((await logText(h.rt, id)).includes('first') ? true : undefined), 5000);
    const stream = await h.rt.logs(id, { follow: true });
    const seen: string[] = [];
    let sawPromptEarly = false;
    for await (const chunk of stream) {
      seen.push(String(chunk));
      // A partial line shows before its newline comes (the supervisor flushes idle fragments).
      if (seen.join('').endsWith('prompt> ') && !seen.join('').includes('third')) sawPromptEarly = true;
    }
    assert.equal(seen.join(''), 'first\nsecond\nprompt> third\n');
    assert.ok(sawPromptEarly);
  });

  it('a follower that stops reading early ends cleanly', async () => {
    const id = await h.run('chatty', { command: ['sh', '-c', 'i=0; while [ $i -lt 2000 ]; do echo line-$i; i=$((i+1)); done; sleep 30'] });
    const stream = await h.rt.logs(id, { follow: true, tail: 1 });
    const first = await new Promise<string>((resolve) => stream.once('data', (c: Buffer) => resolve(String(c))));
    stream.destroy();
    assert.match(first, /^line-\d+\n/);
    await h.rt.removeContainer(id, { force: true });
  });

  it('rotates a log past its size limit and reads across the rotation', async () => {
    const id = await small.createContainer(
      h.spec('rotated', { command: ['sh', '-c', 'i=0; while [ $i -lt 150 ]; do echo line-$i; i=$((i+1)); done; sleep 0.3; echo last'] }),
    );
    await small.startContainer(id);
    const follow = await small.logs(id, { follow: true, tail: 0 });
    const collected = readAll(follow);
    await small.waitContainer(id);
    const all = await logText(small, id);
    const lines = all.trim().split('\n');
    assert.equal(lines.at(-1), 'last');
    assert.ok(lines.length < 100, `only the current and one old file are kept (${lines.length} lines)`);
    assert.equal(await readAll(await small.logs(id, { tail: 2 })), 'line-149\nlast\n');
    assert.match(await collected, /last\n$/);
  });

  it('logs of an unknown container is ContainerNotFound; of a created one, empty', async () => {
    await assert.rejects(h.rt.logs('0'.repeat(64)), /no such container/);
    const id = await h.rt.createContainer(h.spec('never', { command: ['true'] }));
    assert.equal(await readAll(await h.rt.logs(id, { follow: true })), '');
    await sleep(0);
  });
});
