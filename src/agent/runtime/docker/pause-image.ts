// The pod network infra image. A user's machine has no registry copy of it, so the
// runtime builds it on first use from the host's static busybox (Debian's
// busybox-static), the same way scripts/build-test-images.sh does.

import { readFile } from 'node:fs/promises';
import type { DockerContext } from './client.js';
import { genericError } from './engine-errors.js';
import { inspectImage, parseImageRef } from './images.js';
import { writeTar } from './tar.js';
import { RuntimeError } from '../errors.js';

// PID 1 ignores signals it has no handler for, so a bare `sleep` would hold every
// pod deletion for the whole grace period. `wait` is interrupted by the trapped
// TERM; a foreground `sleep` would not be. Keep in step with the script.
export const PAUSE_SCRIPT = 'trap "exit 0" TERM INT HUP; while :; do sleep 3600 & wait $!; done';
const IMAGE_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

export async function pauseImageTar(busyboxPath: string): Promise<Buffer> {
  let busybox: Buffer;
  try {
    busybox = await readFile(busyboxPath);
  } catch (err) {
    throw new RuntimeError(`cannot build the pause image: ${busyboxPath} is not readable (install Debian's busybox-static): ${(err as Error).message}`, {
      cause: err,
    });
  }
  return writeTar([
    { type: 'dir', path: 'bin' },
    { type: 'dir', path: 'etc' },
    { type: 'dir', path: 'tmp', mode: 0o1777 },
    { type: 'file', path: 'bin/busybox', content: busybox, mode: 0o755 },
    { type: 'symlink', path: 'bin/sh', target: '/bin/busybox' },
    { type: 'symlink', path: 'bin/sleep', target: '/bin/busybox' },
    { type: 'file', path: 'etc/passwd', content: Buffer.from('root:x:0:0:root:/:/bin/sh\n') },
  ]);
}

async function buildPauseImage(ctx: DockerContext): Promise<void> {
  const { repository, tag } = parseImageRef(ctx.pauseImage);
  const tar = await pauseImageTar(ctx.busyboxPath);
  try {
    // A Buffer is sent with its Content-Length; dockerode's types only name streams.
    const stream = await ctx.docker.importImage(
      tar as unknown as NodeJS.ReadableStream,
      {
        repo: repository,
        tag,
        changes: [`ENV PATH=${IMAGE_PATH}`, `CMD ${JSON.stringify(['/bin/sh', '-c', PAUSE_SCRIPT])}`, 'LABEL drover.dev/built-by=drover-runtime'],
      } as object,
    );
    await drainProgress(ctx, stream);
  } catch (err) {
    throw genericError(err, `build pause image ${ctx.pauseImage}`);
  }
}

function drainProgress(ctx: DockerContext, stream: NodeJS.ReadableStream): Promise<void> {
  return new Promise((resolve, reject) => {
    ctx.docker.modem.followProgress(stream, (err: unknown, output: Array<{ error?: string }>) => {
      const failed = output.find((line) => typeof line.error === 'string');
      if (err) reject(err);
      else if (failed) reject(new Error(failed.error));
      else resolve();
    });
  });
}

/** Builds the pause image once per process when it is missing; concurrent callers share the build. */
export class PauseImage {
  private ready: Promise<void> | undefined;

  constructor(private readonly ctx: DockerContext) {}

  ensure(): Promise<void> {
    this.ready ??= this.check().catch((err: unknown) => {
      this.ready = undefined; // let the next sandbox try again
      throw err;
    });
    return this.ready;
  }

  private async check(): Promise<void> {
    if (await inspectImage(this.ctx, this.ctx.pauseImage)) return;
    await buildPauseImage(this.ctx);
  }
}
