// The connection to the Docker Engine and the settings every part of the Docker
// runtime shares.

import { availableParallelism } from 'node:os';
import Docker from 'dockerode';
import { DirectAttach, type PodNetworkAttach } from './direct-attach.js';
import { PodNetwork } from './pod-network.js';
import { SandboxClaims } from './sandbox-claims.js';
import { ConcurrencyLimit } from '../../../util/concurrency-limit.js';
import { STARTS_PER_CORE } from './engine-starts.js';

export interface DockerRuntimeOptions {
  /** An existing client; otherwise one is made from socketPath or DOCKER_HOST. */
  docker?: Docker;
  /** Defaults to DOCKER_HOST when set, else /var/run/docker.sock. */
  socketPath?: string;
  /** The pod network infra image; built from busyboxPath when missing. */
  pauseImage?: string;
  /** Where hostPorts are published unless a port names its own hostIP. */
  hostIP?: string;
  /** The static busybox the pause image is built from. */
  busyboxPath?: string;
  /** json-file log rotation, so a chatty container cannot fill the disk. */
  logMaxSize?: string;
  logMaxFiles?: number;
  /** Docker object names start with this (drover_<container>_<pod>_...). */
  namePrefix?: string;
  /** The cluster's pod CIDR: sandboxes join its Docker network (pod-network.ts); Docker's default bridge without it. */
  podCidr?: string;
  /** How sandboxes join the pod network (direct-attach.ts; default direct, where the agent may). */
  podNetworkAttach?: PodNetworkAttach;
  /** Where the runtime keeps what labels cannot hold (pool sandboxes' claims); no sandbox pool without it. */
  stateDir?: string;
  /** Container creates and starts in the Engine at once (default 4 per core). */
  maxConcurrentStarts?: number;
}

export const DEFAULT_PAUSE_IMAGE = 'drover/pause:1';
export const CPU_PERIOD_US = 100_000;

export interface DockerContext {
  docker: Docker;
  pauseImage: string;
  hostIP: string;
  busyboxPath: string;
  logMaxSize: string;
  logMaxFiles: number;
  namePrefix: string;
  podNetwork: PodNetwork | undefined;
  /** Whether the agent joins sandboxes to the pod network itself (direct-attach.ts). */
  directAttach: DirectAttach;
  /** Which pool sandbox is which pod's (sandbox-claims.ts); absent without a state directory. */
  claims: SandboxClaims | undefined;
  /** Containers created by this process, by id: the hostname their shim waits for, or null for none. */
  shims: Map<string, string | null>;
  /** Every container create and start goes through it (engine-starts.ts). */
  starts: ConcurrencyLimit;
}

export function createContext(opts: DockerRuntimeOptions = {}): DockerContext {
  const docker = opts.docker ?? connect(opts.socketPath);
  return {
    docker,
    pauseImage: opts.pauseImage ?? DEFAULT_PAUSE_IMAGE,
    hostIP: opts.hostIP ?? '127.0.0.1',
    busyboxPath: opts.busyboxPath ?? '/bin/busybox',
    logMaxSize: opts.logMaxSize ?? '10m',
    logMaxFiles: opts.logMaxFiles ?? 3,
    namePrefix: opts.namePrefix ?? 'drover',
    podNetwork: opts.podCidr ? new PodNetwork(docker, opts.podCidr) : undefined,
    directAttach: new DirectAttach((opts.podNetworkAttach ?? 'direct') === 'direct'),
    claims: opts.stateDir ? new SandboxClaims(opts.stateDir) : undefined,
    shims: new Map(),
    starts: new ConcurrencyLimit(opts.maxConcurrentStarts ?? STARTS_PER_CORE * availableParallelism()),
  };
}

function connect(socketPath: string | undefined): Docker {
  // With no options docker-modem reads DOCKER_HOST (unix://, tcp://, ssh://) itself
  // and falls back to /var/run/docker.sock.
  if (socketPath !== undefined) return new Docker({ socketPath });
  return new Docker();
}

/** A Docker object name from parts that are DNS labels already; '_' separates them. */
export function dockerName(parts: Array<string | number>): string {
  return parts.map((p) => String(p).replace(/[^a-zA-Z0-9_.-]/g, '-')).join('_');
}

/** Docker reports "never" as the zero time. */
export function parseDockerTime(value: string | undefined): Date | undefined {
  if (!value || value.startsWith('0001-01-01')) return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
}
