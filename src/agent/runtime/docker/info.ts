// Engine version and health, for the Node's nodeInfo and its Ready condition.

import type Docker from 'dockerode';
import type { DockerContext } from './client.js';
import { engineMessage, genericError } from './engine-errors.js';
import type { RuntimeStatus, RuntimeVersion } from '../runtime.js';

/** A hung daemon must turn into Ready=False, not into a hung status loop. */
const STATUS_TIMEOUT_MS = 5000;

// dockerode takes an abortSignal here, but its type declarations name no options.
type WithSignal<T> = (this: Docker, opts: { abortSignal: AbortSignal }) => Promise<T>;

function timeoutOpts(): { abortSignal: AbortSignal } {
  return { abortSignal: AbortSignal.timeout(STATUS_TIMEOUT_MS) };
}

export async function version(ctx: DockerContext): Promise<RuntimeVersion> {
  try {
    const v = await (ctx.docker.version as WithSignal<Docker.DockerVersion>).call(ctx.docker, timeoutOpts());
    return {
      runtimeName: 'docker',
      runtimeVersion: v.Version,
      apiVersion: v.ApiVersion,
      os: v.Os,
      arch: v.Arch,
      kernelVersion: v.KernelVersion,
    };
  } catch (err) {
    throw genericError(err, 'docker version');
  }
}

interface EngineInfo {
  NCPU?: number;
  MemTotal?: number;
  CgroupVersion?: string;
  CgroupDriver?: string;
  Driver?: string;
  DockerRootDir?: string;
  ContainersRunning?: number;
  /** OCI runtimes the daemon knows, by name ("runc", "nvidia" with the NVIDIA container toolkit). */
  Runtimes?: Record<string, unknown>;
}

export async function status(ctx: DockerContext): Promise<RuntimeStatus> {
  let info: EngineInfo;
  try {
    info = await (ctx.docker.info as WithSignal<EngineInfo>).call(ctx.docker, timeoutOpts());
  } catch (err) {
    const aborted = (err as { name?: string }).name === 'AbortError';
    return {
      ready: false,
      reason: 'RuntimeUnavailable',
      message: aborted ? `docker did not answer within ${STATUS_TIMEOUT_MS} ms` : `docker: ${engineMessage(err)}`,
    };
  }
  return {
    ready: true,
    info: {
      cpus: info.NCPU ?? 0,
      memoryBytes: info.MemTotal ?? 0,
      // Docker 20.10 reports "1" or "2"; older engines leave it out (always v1 then).
      cgroupVersion: info.CgroupVersion ?? '1',
      cgroupDriver: info.CgroupDriver ?? '',
      storageDriver: info.Driver ?? '',
      rootDir: info.DockerRootDir ?? '',
      containersRunning: info.ContainersRunning ?? 0,
    },
  };
}

/**
 * GPUs reach a container through the NVIDIA container toolkit, which registers itself as the
 * daemon's `nvidia` runtime (`docker info` Runtimes). Without it Docker refuses the device
 * request ("could not select device driver"), or worse, on some setups starts the container
 * without GPUs.
 */
export async function gpuUnsupported(ctx: DockerContext): Promise<string | undefined> {
  let info: EngineInfo;
  try {
    info = await (ctx.docker.info as WithSignal<EngineInfo>).call(ctx.docker, timeoutOpts());
  } catch (err) {
    throw genericError(err, 'docker info');
  }
  const names = Object.keys(info.Runtimes ?? {});
  if (names.includes('nvidia')) return undefined;
  return `the Docker daemon has no nvidia runtime (its runtimes: ${names.join(', ') || 'none'}); install the NVIDIA container toolkit and run \`nvidia-ctk runtime configure --runtime=docker\`, or run GPU pods with runtimeClassName: process`;
}
