// The runtime's ContainerSpec for one container of a pod: environment (service variables,
// the container's own, device env),
// $(VAR)-expanded command and args, volume mounts plus the termination-message file,
// resource limits in runtime units, and the security context.
import { createHash } from 'node:crypto';
import { mkdir, open, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { parseQuantity } from '../../../api/validation/quantity.js';
import type { ApiClient } from '../../../client/index.js';
import { serverUrls } from '../../../client/http-transport.js';
import { ownerLabels, type Owner } from '../../agent-labels.js';
import type { ContainerResources, ContainerRuntime, ContainerSpec, Mount, SecurityContext } from '../../runtime/runtime.js';
import type { ConfigSource } from '../config-source.js';
import { GPU_RESOURCE, containerDevices, deviceEnv, type DeviceIds, type DeviceSet } from '../devices.js';
import { buildEnv } from './env.js';
import { resolvConfMount } from '../dns/resolv-conf-file.js';
import type { DnsSettings } from '../dns/resolv-conf.js';
import { expandAll } from './expand.js';
import { RESTART_COUNT_LABEL } from './restart-count.js';
import { podServiceEnv, type ServiceLookup } from './service-env.js';
import { containerMounts, podDir, type VolumePaths } from '../volumes/set-up.js';
import type { Container, Pod } from '../../../api/core/index.js';

export interface SpecInput {
  pod: Pod;
  container: Container;
  isInit: boolean;
  attempt: number;
  restartCount: number;
  sandboxId: string;
  podIP: string;
  runtime: ContainerRuntime;
  volumes: VolumePaths;
  devices: DeviceSet;
  owner: Owner;
  nodeAddress: string;
  dataDir: string;
  allocatable: Readonly<Record<string, string>>;
  sources: ConfigSource;
  /** Present on a node with nvidia.com/gpu: the GPUs' ids (UUIDs) by allocator index. */
  gpus?: { ids: DeviceIds } | undefined;
  /** The cluster's Services, for the Docker-link variables (throws ServicesNotSyncedError before the first list). */
  services: ServiceLookup;
  /** The API server this agent talks to: host-network pods reach it there (KUBERNETES_SERVICE_HOST/PORT). */
  apiServer?: { host: string; port: string } | undefined;
  /** Rewrites the built environment before command and args are expanded with it (training replicas' addresses). */
  rewriteEnv?: (env: Record<string, string>) => Promise<Record<string, string>>;
  /** The cluster DNS and the host's resolver: the pod's resolv.conf. */
  dns: DnsSettings;
}

/** A digest of the container's spec: a running container whose spec changed is replaced. */
export const SPEC_HASH_LABEL = 'drover.dev/container-hash';

export function containerHash(container: Container): string {
  return createHash('sha256').update(JSON.stringify(container)).digest('hex').slice(0, 16);
}

const MAX_MESSAGE_BYTES = 4096;
const FALLBACK_LOG_LINES = 80;
const FALLBACK_LOG_BYTES = 2048;

export function resourcesOf(container: Container): ContainerResources {
  const out: ContainerResources = {};
  const limits = container.resources?.limits ?? {};
  const requests = container.resources?.requests ?? {};
  const cpuLimit = parseQuantity(limits['cpu']);
  const cpuRequest = parseQuantity(requests['cpu']);
  const memory = parseQuantity(limits['memory']);
  if (cpuLimit !== undefined && cpuLimit > 0) out.cpuLimitMillis = Math.ceil(cpuLimit * 1000 - 1e-6);
  if (cpuRequest !== undefined && cpuRequest > 0) out.cpuRequestMillis = Math.ceil(cpuRequest * 1000 - 1e-6);
  if (memory !== undefined && memory > 0) out.memoryLimitBytes = Math.ceil(memory);
  return out;
}

export function securityOf(pod: Pod, container: Container): SecurityContext {
  const sc = container.securityContext ?? {};
  const podSc = pod.spec.securityContext ?? {};
  const uid = sc.runAsUser ?? podSc.runAsUser;
  const gid = sc.runAsGroup ?? podSc.runAsGroup;
  const out: SecurityContext = {};
  if (uid !== undefined) out.user = gid === undefined ? String(uid) : `${uid}:${gid}`;
  if (sc.privileged) out.privileged = true;
  if (sc.readOnlyRootFilesystem) out.readOnlyRootFilesystem = true;
  if (sc.capabilities?.add) out.capAdd = sc.capabilities.add;
  if (sc.capabilities?.drop) out.capDrop = sc.capabilities.drop;
  return out;
}

export function terminationLogPath(dataDir: string, uid: string, name: string, attempt: number): string {
  return join(podDir(dataDir, uid), 'containers', name, `${attempt}.termination-log`);
}

/** An empty file bound at terminationMessagePath, writable by any user the container runs as. */
async function terminationMount(input: SpecInput): Promise<Mount> {
  const path = terminationLogPath(input.dataDir, input.pod.metadata.uid ?? '', input.container.name, input.attempt);
  await mkdir(dirname(path), { recursive: true });
  const handle = await open(path, 'w', 0o666);
  await handle.chmod(0o666);
  await handle.close();
  return { type: 'bind', source: path, target: input.container.terminationMessagePath ?? '/dev/termination-log' };
}

/** Where in-cluster clients find the service-account files (client-go reads this path). */
export const SERVICE_ACCOUNT_MOUNT_PATH = '/var/run/secrets/kubernetes.io/serviceaccount';
/** For host processes, which see no mounts: the host folder holding token, ca.crt and namespace. */
export const SERVICE_ACCOUNT_DIR_ENV = 'DROVER_SERVICE_ACCOUNT_DIR';

/**
 * For pods on the node's network, KUBERNETES_SERVICE_HOST/PORT name the API server where this
 * agent reaches it, over the `kubernetes` Service's variables (a host process reaches it that way
 * whether or not the node programs service rules); and for host processes the service-account folder.
 * The container's own env overrides them.
 */
function apiEnv(input: SpecInput, isProcess: boolean): Record<string, string> {
  const env: Record<string, string> = {};
  if ((isProcess || input.pod.spec.hostNetwork) && input.apiServer) {
    env['KUBERNETES_SERVICE_HOST'] = input.apiServer.host;
    env['KUBERNETES_SERVICE_PORT'] = input.apiServer.port;
  }
  const mount = isProcess ? input.container.volumeMounts?.find((m) => m.mountPath === SERVICE_ACCOUNT_MOUNT_PATH && !m.subPath) : undefined;
  const volume = mount && input.volumes.get(mount.name);
  if (volume) env[SERVICE_ACCOUNT_DIR_ENV] = volume.path;
  return env;
}

/** The first API server of the agent's client, as host and port (the one in-cluster clients of host-network pods dial). */
export function apiServerOf(api: ApiClient): { host: string; port: string } | undefined {
  try {
    const url = serverUrls(api.config.server)[0]!;
    return { host: url.hostname.replace(/^\[(.*)\]$/, '$1'), port: url.port || (url.protocol === 'https:' ? '443' : '80') };
  } catch {
    return undefined;
  }
}

export async function buildContainerSpec(input: SpecInput): Promise<ContainerSpec> {
  const { pod, container } = input;
  const own = containerDevices(pod, input.devices, container, input.isInit);
  const devices = deviceEnv(own, input.gpus);
  const envCtx = { pod, podIP: input.podIP, hostIP: input.nodeAddress, sources: input.sources, allocatable: input.allocatable };
  // Host processes see the host's filesystem: mounts do not apply to them.
  const isProcess = input.runtime.name === 'process';
  const base = { ...podServiceEnv(pod, input.services), ...apiEnv(input, isProcess) };
  const built = await buildEnv(envCtx, container, devices, base);
  const env = input.rewriteEnv ? await input.rewriteEnv(built) : built;
  const resolvConf = isProcess ? undefined : await resolvConfMount(input.dataDir, pod, container, input.dns);
  const mounts = isProcess ? [] : [...(await containerMounts(container, input.volumes)), await terminationMount(input), ...(resolvConf ? [resolvConf] : [])];
  const spec: ContainerSpec = {
    pod: { uid: pod.metadata.uid ?? '', name: pod.metadata.name ?? '', namespace: pod.metadata.namespace ?? 'default' },
    sandboxId: input.sandboxId,
    name: container.name,
    attempt: input.attempt,
    image: container.image ?? '',
    env,
    mounts,
    resources: resourcesOf(container),
    securityContext: securityOf(pod, container),
    labels: { ...ownerLabels(input.owner), [SPEC_HASH_LABEL]: containerHash(container), [RESTART_COUNT_LABEL]: String(input.restartCount) },
  };
  const command = expandAll(container.command, env);
  const args = expandAll(container.args, env);
  if (command) spec.command = command;
  if (args) spec.args = args;
  const gpus = own[GPU_RESOURCE];
  if (gpus && gpus.length > 0) spec.gpus = input.gpus ? input.gpus.ids(gpus) : gpus.map(String);
  if (container.workingDir) spec.workingDir = container.workingDir;
  if (container.tty) spec.tty = true;
  if (container.stdin) spec.stdin = true;
  if (container.stdinOnce) spec.stdinOnce = true;
  return spec;
}

/** The message a finished container left: its termination-log file, or its log's tail on error when asked. */
export async function terminationMessage(
  runtime: ContainerRuntime,
  dataDir: string,
  pod: Pod,
  container: Container,
  id: string,
  attempt: number,
  exitCode: number,
): Promise<string> {
  const path = terminationLogPath(dataDir, pod.metadata.uid ?? '', container.name, attempt);
  const file = await readFile(path).catch(() => Buffer.alloc(0));
  if (file.length > 0) return file.subarray(0, MAX_MESSAGE_BYTES).toString('utf8');
  if (container.terminationMessagePolicy !== 'FallbackToLogsOnError' || exitCode === 0) return '';
  try {
    const stream = await runtime.logs(id, { tail: FALLBACK_LOG_LINES });
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
    const all = Buffer.concat(chunks);
    return all.subarray(Math.max(0, all.length - FALLBACK_LOG_BYTES)).toString('utf8');
  } catch {
    return '';
  }
}
