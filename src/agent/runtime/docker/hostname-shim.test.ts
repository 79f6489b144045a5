import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { dockerArgv, shimScript } from './hostname-shim.js';

const BUSYBOX = '/bin/busybox';
const hostname = readFileSync('/proc/sys/kernel/hostname', 'utf8').trim();
const bin = mkdtempSync(join(tmpdir(), 'shim-test-'));
/** A stand-in executable that says how it was called. */
function tool(name: string): void {
  writeFileSync(join(bin, name), `#!/bin/sh\necho "${name}-from-path argv0=$0 args=$*"\n`);
  chmodSync(join(bin, name), 0o755);
}
tool('hello');
tool('ls');

function shim(waitFor: string, argv: string[]) {
  return spawnSync(BUSYBOX, ['sh', '-c', shimScript(waitFor), 'drover-hostname-shim', ...argv], {
    encoding: 'utf8',
    env: { PATH: `/nonexistent:${bin}` },
    timeout: 5000,
  });
}

describe('hostname shim', () => {
  after(() => rmSync(bin, { recursive: true, force: true }));

  it("once the hostname is the pod's, execs the command found in the PATH under its own argv[0]", () => {
    const run = shim(hostname, ['hello', 'a', 'b']);
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /^hello-from-path argv0=.*hello args=a b$/m);
  });

  it("runs the image's executable, not busybox's applet of the same name", () => {
    const run = shim(hostname, ['ls', '-l']);
    assert.match(run.stdout, /^ls-from-path/m);
  });

  it('execs a path as given', () => {
    const run = shim(hostname, [join(bin, 'hello'), 'x']);
    assert.match(run.stdout, /hello-from-path .* args=x/);
  });

  it("fails as Docker's exec would when the command is not in the PATH", () => {
    const run = shim(hostname, ['no-such-tool']);
    assert.equal(run.status, 127);
    assert.match(run.stderr, /exec: "no-such-tool": executable file not found in \$PATH/);
  });

  it('waits while the hostname is another', async () => {
    const child = spawn(BUSYBOX, ['sh', '-c', shimScript(`${hostname}-not`), 'drover-hostname-shim', 'hello'], { env: { PATH: bin } });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(child.exitCode, null);
    assert.equal(out, '');
    child.kill('SIGKILL');
  });
});

describe("Docker's command merge", () => {
  const image = { Entrypoint: ['/entry'], Cmd: ['serve', '--port=80'] };
  it("runs the image's entrypoint and command when the pod gives neither", () => {
    assert.deepEqual(dockerArgv(image), ['/entry', 'serve', '--port=80']);
  });
  it("a pod's command replaces both, its args follow", () => {
    assert.deepEqual(dockerArgv(image, ['/bin/app'], ['x']), ['/bin/app', 'x']);
    assert.deepEqual(dockerArgv(image, ['/bin/app']), ['/bin/app']);
  });
  it("args alone replace the image's command after its entrypoint", () => {
    assert.deepEqual(dockerArgv(image, undefined, ['other']), ['/entry', 'other']);
    assert.deepEqual(dockerArgv({ Entrypoint: null, Cmd: ['sh'] }, undefined, []), ['sh']);
  });
});
