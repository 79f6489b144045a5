import assert from 'node:assert/strict';
import type { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import { ContainerNotFoundError, NotRunningError } from '../errors.js';
import { readAll, run, useDockerSandbox } from '../../../../test/support/agent/docker-runtime.js';
import { waitFor } from '../../../../test/support/wait-for.js';

/** Reads from a live stream until `pattern` has appeared. */
async function readUntil(stream: Readable, pattern: RegExp, timeoutMs = 5000): Promise<string> {
  let text = '';
  const timer = setTimeout(() => stream.destroy(new Error(`no ${String(pattern)} within ${timeoutMs} ms; got ${JSON.stringify(text)}`)), timeoutMs);
  try {
    for await (const chunk of stream) {
      text += String(chunk);
      if (pattern.test(text)) return text;
    }
    throw new Error(`stream ended before ${String(pattern)}; got ${JSON.stringify(text)}`);
  } finally {
    clearTimeout(timer);
  }
}

describe('docker logs, exec and attach', { timeout: 120_000 }, () => {
  const bed = useDockerSandbox('streams');
  const { rt, pod } = bed;

  it('logs merge demultiplexed stdout and stderr, with tail and timestamps', async () => {
    // stdout and stderr reach Docker through separate pipes; the pause keeps their order.
    const id = await run(rt, pod, bed.sandbox, 'lines', { command: ['sh', '-c', 'for i in 1 2 3 4 5; do echo out$i; done; sleep 0.3; echo err1 >&2'] });
    await rt.waitContainer(id);
    assert.equal(await readAll(await rt.logs(id)), 'out1\nout2\nout3\nout4\nout5\nerr1\n');
    assert.equal(await readAll(await rt.logs(id, { stderr: false })), 'out1\nout2\nout3\nout4\nout5\n');
    assert.equal(await readAll(await rt.logs(id, { stdout: false })), 'err1\n');
    assert.equal(await readAll(await rt.logs(id, { tail: 2 })), 'out5\nerr1\n');
    // Docker takes the last N lines of the whole log, then drops the unwanted stream.
    assert.equal(await readAll(await rt.logs(id, { tail: 1, stderr: false })), '');
    const stamped = (await readAll(await rt.logs(id, { tail: 1, timestamps: true }))).trim();
    assert.match(stamped, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+Z err1$/);
    const future = new Date(Date.now() + 60_000);
    assert.equal(await readAll(await rt.logs(id, { since: future })), '');
    const errAt = new Date(stamped.split(' ')[0] ?? '');
    assert.equal(await readAll(await rt.logs(id, { since: new Date(errAt.getTime() - 100) })), 'err1\n');
  });

  it('logs follow a running container until it exits', async () => {
    const id = await run(rt, pod, bed.sandbox, 'ticker', { command: ['sh', '-c', 'for i in 1 2 3; do echo tick$i; sleep 0.3; done'] });
    const text = await readAll(await rt.logs(id, { follow: true }));
    assert.equal(text, 'tick1\ntick2\ntick3\n');
  });

  it('logs of a TTY container are passed through raw', async () => {
    const id = await run(rt, pod, bed.sandbox, 'tty', { command: ['sh', '-c', 'echo on-a-tty'], tty: true });
    await rt.waitContainer(id);
    assert.equal(await readAll(await rt.logs(id)), 'on-a-tty\r\n');
  });

  it('logs of a missing container are ContainerNotFound', async () => {
    await assert.rejects(rt.logs('0123456789ab-missing'), ContainerNotFoundError);
  });

  it('exec reports the exit code and splits stdout from stderr', async () => {
    const id = await run(rt, pod, bed.sandbox, 'target', { command: ['sleep', '300'] });
    const session = await rt.exec(id, { cmd: ['sh', '-c', 'echo to-out; echo to-err >&2; exit 5'] });
    const [out, err] = await Promise.all([readAll(session.stdout), readAll(session.stderr)]);
    assert.equal(out, 'to-out\n');
    assert.equal(err, 'to-err\n');
    assert.equal(await session.exitCode(), 5);

    const env = await rt.exec(id, { cmd: ['sh', '-c', 'echo $FOO; pwd'], env: { FOO: 'bar' }, workingDir: '/etc' });
    assert.equal(await readAll(env.stdout), 'bar\n/etc\n');
    assert.equal(await env.exitCode(), 0);
  });

  it('exec feeds stdin and sees its end', async () => {
    const id = await run(rt, pod, bed.sandbox, 'stdin-target', { command: ['sleep', '300'] });
    const session = await rt.exec(id, { cmd: ['sh', '-c', 'tr a-z A-Z; echo done'], stdin: true });
    assert.ok(session.stdin);
    const output = readAll(session.stdout);
    session.stdin.write('hello ');
    session.stdin.end('world\n');
    assert.equal(await output, 'HELLO WORLD\ndone\n');
    assert.equal(await session.exitCode(), 0);
  });

  it('exec with a TTY can be resized and reports the size', async () => {
    const id = await run(rt, pod, bed.sandbox, 'tty-target', { command: ['sleep', '300'] });
    const session = await rt.exec(id, { cmd: ['sh'], stdin: true, tty: true });
    assert.ok(session.stdin);
    await waitFor('resize accepted', async () => (await session.resize({ cols: 91, rows: 17 }), true));
    session.stdin.write('stty size; exit 3\n');
    const text = await readAll(session.stdout);
    assert.match(text, /17 91/);
    assert.equal(await session.exitCode(), 3);
  });

  it('exec in a stopped container is NotRunning', async () => {
    const id = await run(rt, pod, bed.sandbox, 'stopped', { command: ['true'] });
    await rt.waitContainer(id);
    await assert.rejects(rt.exec(id, { cmd: ['true'] }), NotRunningError);
  });

  it("attach writes to the main process's stdin and reads its output", async () => {
    const id = await run(rt, pod, bed.sandbox, 'attached', {
      command: ['sh', '-c', 'while read line; do echo "got $line"; [ "$line" = bye ] && exit 0; done'],
      stdin: true,
    });
    const session = await rt.attach(id, { stdin: true, stdout: true, stderr: true });
    assert.ok(session.stdin);
    session.stdin.write('one\n');
    assert.match(await readUntil(session.stdout, /got one/), /got one/);
    session.stdin.write('bye\n');
    assert.equal(await rt.waitContainer(id), 0);
    session.close();
  });
});
