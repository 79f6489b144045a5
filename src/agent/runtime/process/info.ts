// Version and health of the process runtime.

import { execFile } from 'node:child_process';
import { access, constants as fsc, mkdir } from 'node:fs/promises';
import { arch, availableParallelism, platform, release, totalmem } from 'node:os';
import type { CgroupLayout } from './cgroups.js';
import type { ProcessContext } from './context.js';
import type { RuntimeStatus, RuntimeVersion } from '../runtime.js';

export const RUNTIME_VERSION = '1.0.0';

const GO_ARCH: Record<string, string> = { x64: 'amd64', arm64: 'arm64', arm: 'arm', ia32: '386', ppc64: 'ppc64le', s390x: 's390x' };

export function version(): RuntimeVersion {
  return {
    runtimeName: 'process',
    runtimeVersion: RUNTIME_VERSION,
    apiVersion: '1',
    os: platform(),
    arch: GO_ARCH[arch()] ?? arch(),
    kernelVersion: release(),
  };
}

function perlWorks(ctx: ProcessContext): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(ctx.perl, ['-MPOSIX', '-MFcntl', '-e', '1'], { timeout: 5000 }, (err, _out, stderr) => {
      resolve(err ? `${ctx.perl}: ${stderr.trim() || err.message}` : undefined);
    });
  });
}

export async function status(ctx: ProcessContext, layout: CgroupLayout, running: () => Promise<number>): Promise<RuntimeStatus> {
  const perl = await perlWorks(ctx);
  if (perl) return { ready: false, reason: 'RuntimeUnavailable', message: `the process runtime needs perl for its supervisor: ${perl}` };
  try {
    await mkdir(ctx.stateDir, { recursive: true });
    await access(ctx.stateDir, fsc.W_OK);
  } catch (err) {
    return { ready: false, reason: 'RuntimeUnavailable', message: `state directory ${ctx.stateDir}: ${(err as Error).message}` };
  }
  return {
    ready: true,
    // Not a failure: containers run, without resource limits.
    ...(layout.version === 0 ? { message: `resource limits are not enforced: ${layout.reason}` } : {}),
    info: {
      cpus: availableParallelism(),
      memoryBytes: totalmem(),
      cgroupVersion: layout.version === 0 ? '' : String(layout.version),
      cgroupDriver: layout.version === 0 ? 'none' : 'cgroupfs',
      storageDriver: 'none',
      rootDir: ctx.stateDir,
      containersRunning: await running(),
    },
  };
}
