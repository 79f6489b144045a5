import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ExecFailedError, NotRunningError } from '../errors.js';
import { harness, logText, readAll, type Harness } from '../../../../test/support/agent/process-runtime.js';
import { waitFor } from '../../../../test/support/wait-for.js';

describe('process runtime: exec and attach', { timeout: 30_000 }, () => {
  let h: Harness;
  let scratch: string;
  let main: string;
  before(async () => {
    h = await harness('exec');
    scratch = mkdtempSync(join(tmpdir(), 'drover-process-exec-'));
    chmodSync(scratch, 0o755);
    main = await h.run('main', { command: ['sleep', '30'], env: { FROM_SPEC: 'spec' }, workingDir: scratch });
  });
  after(async () => {
    await h.cleanup();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('runs a command with the container env and working dir, and reports its exit code', async () => {
    const session = await h.rt.exec(main, { cmd: ['sh', '-c', 'echo "$FROM_SPEC $EXTRA $(pwd)"; echo oops >&2; exit 4'], env: { EXTRA: 'extra' } });
    const [out, err, code] = await Promise.all([readAll(session.stdout), readAll(session.stderr), session.exitCode()]);
    assert.equal(out, `spec extra ${scratch}\n`);
    assert.equal(err, 'oops\n');
    assert.equal(code, 4);
    await session.resize({ cols: 80, rows: 24 }); // no TTY: a no-op
  });

  it('feeds stdin, and reports a signalled exec as 128+signal', async () => {
    const session = await h.rt.exec(main, { cmd: ['sh', '-c', 'tr a-z A-Z'], stdin: true });
    assert.ok(session.stdin);
    session.stdin.end('hello\n');
    assert.equal(await readAll(session.stdout), 'HELLO\n');
    assert.equal(await session.exitCode(), 0);
    const killed = await h.rt.exec(main, { cmd: ['sh', '-c', 'kill -TERM $$'] });
    assert.equal(await killed.exitCode(), 143);
  });

  it('a missing command exits 127 with the reason on stderr; a TTY is refused', async () => {
    const session = await h.rt.exec(main, { cmd: ['no-such-command-xyz'] });
    const [err, code] = await Promise.all([readAll(session.stderr), session.exitCode()]);
    assert.equal(code, 127);
    assert.match(err, /executable file not found/);
    await assert.rejects(h.rt.exec(main, { cmd: ['sh'], tty: true }), ExecFailedError);
  });

  it('exec and attach need a running container', async () => {
    const id = await h.run('done', { command: ['true'] });
    await h.rt.waitContainer(id);
    await assert.rejects(h.rt.exec(id, { cmd: ['true'] }), NotRunningError);
    await assert.rejects(h.rt.attach(id, {}), NotRunningError);
  });

  it('attach writes to stdin through the FIFO and reads output from then on; stdin stays open across clients', async () => {
    const id = await h.run('cat', { command: ['sh', '-c', 'echo before; while read l; do echo "got $l"; done; echo eof'], stdin: true });
    await waitFor('started', async () => ((await logText(h.rt, id)).includes('before') ? true : undefined), 5000);
    for (const word of ['one', 'two']) {
      const session = await h.rt.attach(id, { stdin: true });
      session.stdin?.end(`${word}\n`);
      const line = await new Promise<string>((resolve) => session.stdout.once('data', (c: Buffer) => resolve(String(c))));
      assert.equal(line, `got ${word}\n`);
      session.close();
    }
    assert.equal((await h.rt.inspectContainer(id)).state, 'running', 'a client leaving does not close stdin');
    await h.rt.stopContainer(id, 1);
    assert.equal(await logText(h.rt, id), 'before\ngot one\ngot two\n');
  });

  it('stdinOnce: the first client leaving closes the container stdin', async () => {
    const id = await h.run('once', { command: ['sh', '-c', 'while read l; do echo "got $l"; done; echo eof; exit 9'], stdin: true, stdinOnce: true });
    const session = await h.rt.attach(id, { stdin: true });
    const output = readAll(session.stdout);
    session.stdin?.end('only\n');
    assert.equal(await h.rt.waitContainer(id), 9);
    assert.equal(await output, 'got only\neof\n');
  });
});
