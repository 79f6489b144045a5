import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { LOST_EXIT_CODE } from './state.js';
import { harness, logText, type Harness } from '../../../../test/support/agent/process-runtime.js';

const run = promisify(execFile);

describe('process runtime: state survives the agent', { timeout: 30_000 }, () => {
  let h: Harness;
  let scratch: string;
  const startedRecord = (id: string): { supervisorPid: number; pid: number } =>
    JSON.parse(readFileSync(join(h.stateDir, 'containers', id, 'started.json'), 'utf8')) as { supervisorPid: number; pid: number };
  before(async () => {
    h = await harness('restart');
    scratch = mkdtempSync(join(tmpdir(), 'drover-process-restart-'));
  });
  after(async () => {
    await h.cleanup();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('a container started by an agent that then exits keeps running, and a new runtime reports its exit code', async () => {
    const stop = join(scratch, 'stop');
    const spec = h.spec('survivor', { command: ['sh', '-c', `echo up; while [ ! -f ${stop} ]; do sleep 0.05; done; echo down; exit 7`] });
    // A separate node process plays the agent: it starts the container and exits.
    const agent = `
      import { ProcessRuntime } from ${JSON.stringify(new URL('./process-runtime.js', import.meta.url).href)};
      const rt = new ProcessRuntime(${JSON.stringify({ stateDir: h.stateDir, cgroupParent: h.cgroupParent })});
      const id = await rt.createContainer(${JSON.stringify(spec)});
      await rt.startContainer(id);
      console.log(id);`;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', agent], { timeout: 10_000 });
    const id = stdout.trim();

    const rt = h.reopen();
    const running = await rt.inspectContainer(id);
    assert.equal(running.state, 'running');
    assert.ok(running.pid > 0);
    assert.deepEqual(
      (await rt.listContainers({ all: false })).map((c) => c.id),
      [id],
    );

    writeFileSync(stop, '');
    assert.equal(await rt.waitContainer(id), 7);
    const exited = await h.reopen().inspectContainer(id);
    assert.equal(exited.state, 'exited');
    assert.equal(exited.exitCode, 7);
    assert.equal(await logText(rt, id), 'up\ndown\n');
  });

  it('the supervisor passes SIGTERM and SIGINT on to the command', async () => {
    for (const [signal, code] of [
      ['SIGTERM', 143],
      ['SIGINT', 130],
    ] as const) {
      const id = await h.run(`forwarded-${code}`, { command: ['sleep', '30'] });
      process.kill(startedRecord(id).supervisorPid, signal);
      assert.equal(await h.rt.waitContainer(id), code);
    }
  });

  it('a container whose supervisor was killed is reported exited with an unknown code', async () => {
    const id = await h.run('orphaned', { command: ['sleep', '30'] });
    const started = startedRecord(id);
    process.kill(started.supervisorPid, 'SIGKILL');
    process.kill(started.pid, 'SIGKILL');
    assert.equal(await h.reopen().waitContainer(id), LOST_EXIT_CODE);
    const status = await h.rt.inspectContainer(id);
    assert.equal(status.state, 'exited');
    assert.match(status.error, /exit code is unknown/);
    assert.equal(existsSync(join(h.stateDir, 'containers', id, 'exit.json')), false);
  });
});
