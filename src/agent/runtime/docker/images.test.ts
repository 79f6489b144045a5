import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { readFile } from 'node:fs/promises';
import Docker from 'dockerode';
import { parseImageRef } from './images.js';
import { ImageNotFoundError, ImagePullError } from '../errors.js';
import { IMAGE_V1, IMAGE_V2, RUN_ID, cleanup, ensureDocker, newPod, newRuntime, run, startSandbox } from '../../../../test/support/agent/docker-runtime.js';
import { waitFor } from '../../../../test/support/wait-for.js';

describe('parseImageRef', () => {
  it('adds latest when there is no tag', () => {
    assert.deepEqual(parseImageRef('busybox'), { repository: 'busybox', tag: 'latest', ref: 'busybox:latest' });
  });
  it('keeps a registry port apart from the tag', () => {
    assert.deepEqual(parseImageRef('127.0.0.1:5000/a/b'), { repository: '127.0.0.1:5000/a/b', tag: 'latest', ref: '127.0.0.1:5000/a/b:latest' });
    assert.equal(parseImageRef('127.0.0.1:5000/a/b:2').tag, '2');
  });
  it('passes digests through', () => {
    const ref = parseImageRef('a/b@sha256:abc');
    assert.equal(ref.repository, 'a/b');
    assert.equal(ref.tag, 'sha256:abc');
  });
});

const SIGTERM_BIT = 1n << 14n; // signal 15, bit 15 - 1 of /proc/PID/status SigCgt

async function untilCatchesSigterm(docker: Docker, id: string): Promise<void> {
  const pid = (await docker.getContainer(id).inspect()).State.Pid;
  await waitFor(
    `PID ${pid} of ${id} to install its SIGTERM handler`,
    async () => {
      const caught = /^SigCgt:\s*([0-9a-f]+)$/m.exec(await readFile(`/proc/${pid}/status`, 'utf8'))?.[1];
      return caught !== undefined && (BigInt(`0x${caught}`) & SIGTERM_BIT) !== 0n;
    },
    5_000,
  );
}

// No registry is reachable here, and test traffic stays on loopback: "missing" images
// name a registry on 127.0.0.1:1, where nothing listens, so a pull fails at once.
const MISSING_REMOTE = '127.0.0.1:1/drover-test/missing:1';
const MISSING_LOCAL = `drover-test/never-built-${RUN_ID}:1`;

describe('docker images and pull policies', { timeout: 120_000 }, () => {
  const rt = newRuntime();
  before(() => ensureDocker(), { timeout: 600_000 });
  after(() => cleanup());

  it('IfNotPresent and Never use a local image without pulling', async () => {
    const a = await rt.pullImage(IMAGE_V1, 'IfNotPresent');
    const b = await rt.pullImage(IMAGE_V1, 'Never');
    assert.match(a.id, /^sha256:[0-9a-f]{64}$/);
    assert.equal(a.id, b.id);
    assert.ok(a.repoTags.includes(IMAGE_V1));
    const v2 = await rt.pullImage(IMAGE_V2, 'Never');
    assert.notEqual(v2.id, a.id, 'the two test tags must differ');
  });

  it("Never on a missing image is ImageNotFound with Docker's message", async () => {
    await assert.rejects(rt.pullImage(MISSING_LOCAL, 'Never'), (err: unknown) => {
      assert.ok(err instanceof ImageNotFoundError);
      assert.equal(err.code, 'ImageNotFound');
      assert.match(err.engineMessage, /No such image/i);
      assert.match(err.message, /pull policy of Never/);
      return true;
    });
  });

  it('IfNotPresent and Always on a missing image fail with the pull error', async () => {
    for (const policy of ['IfNotPresent', 'Always'] as const) {
      await assert.rejects(rt.pullImage(MISSING_REMOTE, policy), (err: unknown) => {
        assert.ok(err instanceof ImagePullError, `${policy}: ${String(err)}`);
        assert.equal(err.code, 'ImagePullFailed');
        assert.match(err.engineMessage, /127\.0\.0\.1:1.*connection refused/);
        return true;
      });
    }
  });

  it('inspectImage answers undefined for a missing image', async () => {
    assert.equal(await rt.inspectImage(MISSING_LOCAL), undefined);
  });

  it('creating a container from a missing image is ImageNotFound', async () => {
    const pod = newPod('noimage');
    const sandbox = await startSandbox(rt, pod);
    await assert.rejects(run(rt, pod, sandbox, 'app', { image: MISSING_LOCAL }), (err: unknown) => {
      assert.ok(err instanceof ImageNotFoundError, String(err));
      assert.match(err.engineMessage, /No such image/);
      return true;
    });
    await rt.removeSandbox(sandbox.id);
  });

  it('builds a missing pause image from busybox, and it stops at once on SIGTERM', async () => {
    const docker = new Docker();
    const tag = `drover-test/pause-build:${RUN_ID}`;
    const own = newRuntime({ pauseImage: tag });
    try {
      const pod = newPod('pausebuild');
      const sandbox = await startSandbox(own, pod);
      assert.equal(sandbox.state, 'running');
      const image = await docker.getImage(tag).inspect();
      assert.equal(image.Config.Labels?.['drover.dev/built-by'], 'drover-runtime');
      // The kernel drops a signal to a namespace's PID 1 that has no handler yet, so
      // the stop may only come once the shell has run its `trap` (a freshly started
      // container can still be parsing its script).
      await untilCatchesSigterm(docker, sandbox.id);
      const started = Date.now();
      await own.stopContainer(sandbox.id, 10);
      assert.ok(Date.now() - started < 3000, 'pause must exit on SIGTERM, not wait for SIGKILL');
      assert.equal((await own.inspectContainer(sandbox.id)).exitCode, 0);
      await own.removeSandbox(sandbox.id);
    } finally {
      await docker
        .getImage(tag)
        .remove({ force: true })
        .catch(() => undefined);
    }
  });
});
