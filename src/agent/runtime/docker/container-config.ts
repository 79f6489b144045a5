// Pure translations from the runtime's specs to Docker Engine create/update bodies.
// Kept free of I/O so the mapping rules are unit-tested without a daemon.

import type Docker from 'dockerode';
import { CPU_PERIOD_US, dockerName, type DockerContext } from './client.js';
import { CONTAINER_NAME, KIND, MANAGED, POOL_MEMBER, SANDBOX_ID, mergeLabels, podLabels } from '../labels.js';
import { POD_IP, POD_NETWORK } from './direct-attach.js';
import type { ContainerResources, ContainerSpec, Mount, SandboxSpec } from '../runtime.js';

type CreateOptions = Docker.ContainerCreateOptions;
type HostConfig = NonNullable<CreateOptions['HostConfig']>;

/** Docker refuses CFS quotas below 1 ms per period. */
const MIN_CPU_QUOTA_US = 1000;
/** The kernel's minimum cpu.shares. */
const MIN_CPU_SHARES = 2;

type ResourceFields = Pick<HostConfig, 'CpuPeriod' | 'CpuQuota' | 'CpuShares' | 'Memory' | 'MemorySwap' | 'PidsLimit'>;

/**
 * CFS quota/period rather than NanoCpus: it is what the kubelet sets, Docker accepts
 * it on update (the two are mutually exclusive), and it reads back unambiguously.
 * Memory swap equals the limit, so a container cannot swap past its limit.
 */
export function resourceFields(r: ContainerResources | undefined): ResourceFields {
  const out: ResourceFields = {};
  if (!r) return out;
  if (r.cpuLimitMillis !== undefined && r.cpuLimitMillis > 0) {
    out.CpuPeriod = CPU_PERIOD_US;
    out.CpuQuota = Math.max(MIN_CPU_QUOTA_US, Math.round((r.cpuLimitMillis * CPU_PERIOD_US) / 1000));
  }
  if (r.cpuRequestMillis !== undefined && r.cpuRequestMillis > 0) {
    out.CpuShares = Math.max(MIN_CPU_SHARES, Math.round((r.cpuRequestMillis * 1024) / 1000));
  }
  if (r.memoryLimitBytes !== undefined && r.memoryLimitBytes > 0) {
    out.Memory = r.memoryLimitBytes;
    out.MemorySwap = r.memoryLimitBytes;
  }
  if (r.pidsLimit !== undefined && r.pidsLimit > 0) out.PidsLimit = r.pidsLimit;
  return out;
}

function dockerMount(m: Mount): NonNullable<HostConfig['Mounts']>[number] {
  if (m.type === 'bind') {
    return { Type: 'bind', Source: m.source, Target: m.target, ReadOnly: m.readOnly ?? false };
  }
  return {
    Type: 'tmpfs',
    Source: '',
    Target: m.target,
    ReadOnly: m.readOnly ?? false,
    ...(m.sizeBytes === undefined ? {} : { TmpfsOptions: { SizeBytes: m.sizeBytes, Mode: 0o1777 } }),
  };
}

function logConfig(ctx: DockerContext): HostConfig['LogConfig'] {
  return { Type: 'json-file', Config: { 'max-size': ctx.logMaxSize, 'max-file': String(ctx.logMaxFiles) } };
}

function portFields(ctx: DockerContext, spec: SandboxSpec): Pick<CreateOptions, 'ExposedPorts'> & Pick<HostConfig, 'PortBindings'> {
  const exposed: Record<string, object> = {};
  const bindings: Record<string, Array<{ HostIp: string; HostPort: string }>> = {};
  for (const p of spec.ports ?? []) {
    const key = `${p.containerPort}/${(p.protocol ?? 'TCP').toLowerCase()}`;
    exposed[key] = {};
    if (!p.hostPort) continue;
    (bindings[key] ??= []).push({ HostIp: p.hostIP ?? ctx.hostIP, HostPort: String(p.hostPort) });
  }
  return { ExposedPorts: exposed, PortBindings: bindings };
}

export function sandboxName(ctx: DockerContext, spec: SandboxSpec): string {
  const { pod } = spec;
  return dockerName([ctx.namePrefix, 'POD', pod.name, pod.namespace, pod.uid, spec.attempt]);
}

/** Where the sandbox's network is: the node's (host), the pod network at an address, or Docker's default bridge. */
export interface SandboxNetwork {
  name: string;
  ip?: string | undefined;
  /** The node pod range the address was picked in. */
  range?: string | undefined;
  /** Joined by the agent once it runs (direct-attach.ts): made on Docker's "none", its address in labels. */
  direct?: boolean | undefined;
}

/** Docker's NetworkMode, the address Docker assigns, and the labels that record a direct attachment. */
function networkFields(network: SandboxNetwork | undefined): { mode: string; labels: Record<string, string> } & Pick<CreateOptions, 'NetworkingConfig'> {
  if (network?.direct && network.ip) return { mode: 'none', labels: { [POD_IP]: network.ip, [POD_NETWORK]: network.name } };
  const mode = network?.name ?? 'bridge';
  return { mode, labels: {}, ...(network?.ip ? addressConfig(mode, network.ip) : {}) };
}

export function sandboxCreateOptions(ctx: DockerContext, spec: SandboxSpec, network?: SandboxNetwork): CreateOptions {
  const { ExposedPorts, PortBindings } = portFields(ctx, spec);
  const hostname = spec.hostNetwork ? undefined : (spec.hostname ?? spec.pod.name).slice(0, 63);
  const { mode, labels, NetworkingConfig } = spec.hostNetwork ? { mode: 'host', labels: {} } : networkFields(network);
  return {
    name: sandboxName(ctx, spec),
    Image: ctx.pauseImage,
    ...(hostname === undefined ? {} : { Hostname: hostname }),
    Labels: mergeLabels(spec.labels, { ...podLabels(spec.pod, 'sandbox', spec.attempt), ...labels }),
    ExposedPorts,
    HostConfig: { ...sandboxHostConfig(ctx, mode), PortBindings: spec.hostNetwork ? {} : PortBindings },
    ...(NetworkingConfig ? { NetworkingConfig } : {}),
  };
}

function sandboxHostConfig(ctx: DockerContext, mode: string): HostConfig {
  return {
    NetworkMode: mode,
    // The app containers join this IPC namespace, as in a Kubernetes pod.
    IpcMode: 'shareable',
    RestartPolicy: { Name: 'no' },
    LogConfig: logConfig(ctx),
  };
}

function addressConfig(mode: string, ip: string): Pick<CreateOptions, 'NetworkingConfig'> {
  return { NetworkingConfig: { EndpointsConfig: { [mode]: { IPAMConfig: { IPv4Address: ip } } } } };
}

/**
 * A sandbox made ahead of its pod (sandbox-pool.ts): a pod sandbox in all but the pod, which it
 * learns when claimed. No hostPorts (their pods never take one) and Docker's default hostname.
 */
export function poolSandboxCreateOptions(ctx: DockerContext, name: string, labels: Record<string, string>, network?: SandboxNetwork): CreateOptions {
  const fields = networkFields(network);
  return {
    name,
    Image: ctx.pauseImage,
    Labels: { ...labels, [MANAGED]: 'true', [KIND]: 'sandbox', [POOL_MEMBER]: network?.range ?? '', ...fields.labels },
    HostConfig: sandboxHostConfig(ctx, fields.mode),
    ...(fields.NetworkingConfig ? { NetworkingConfig: fields.NetworkingConfig } : {}),
  };
}

export function containerName(ctx: DockerContext, spec: ContainerSpec): string {
  const { pod } = spec;
  return dockerName([ctx.namePrefix, spec.name, pod.name, pod.namespace, pod.uid, spec.attempt]);
}

/**
 * Kubernetes semantics: `command` replaces the ENTRYPOINT (and drops the image CMD),
 * `args` replaces the CMD. Docker keeps CMD empty when ENTRYPOINT is given.
 */
function commandFields(spec: ContainerSpec): Pick<CreateOptions, 'Entrypoint' | 'Cmd'> {
  const out: Pick<CreateOptions, 'Entrypoint' | 'Cmd'> = {};
  if (spec.command && spec.command.length > 0) out.Entrypoint = spec.command;
  if (spec.args) out.Cmd = spec.args;
  return out;
}

export function containerCreateOptions(ctx: DockerContext, spec: ContainerSpec): CreateOptions {
  const sc = spec.securityContext ?? {};
  const own = {
    ...podLabels(spec.pod, 'container', spec.attempt),
    [CONTAINER_NAME]: spec.name,
    [SANDBOX_ID]: spec.sandboxId,
  };
  return {
    name: containerName(ctx, spec),
    Image: spec.image,
    ...commandFields(spec),
    Env: Object.entries(spec.env ?? {}).map(([k, v]) => `${k}=${v}`),
    ...(spec.workingDir ? { WorkingDir: spec.workingDir } : {}),
    ...(sc.user ? { User: sc.user } : {}),
    Tty: spec.tty ?? false,
    OpenStdin: spec.stdin ?? false,
    StdinOnce: spec.stdinOnce ?? false,
    Labels: mergeLabels(spec.labels, own),
    HostConfig: {
      NetworkMode: `container:${spec.sandboxId}`,
      IpcMode: `container:${spec.sandboxId}`,
      Mounts: (spec.mounts ?? []).map(dockerMount),
      Privileged: sc.privileged ?? false,
      ReadonlyRootfs: sc.readOnlyRootFilesystem ?? false,
      ...(sc.capAdd ? { CapAdd: sc.capAdd } : {}),
      ...(sc.capDrop ? { CapDrop: sc.capDrop } : {}),
      ...resourceFields(spec.resources),
      ...(spec.gpus && spec.gpus.length > 0 ? { DeviceRequests: [{ Driver: 'nvidia', DeviceIDs: spec.gpus, Capabilities: [['gpu']] }] } : {}),
      RestartPolicy: { Name: 'no' },
      LogConfig: logConfig(ctx),
    },
  };
}
