// Starting one container as the kubelet's startContainer does: image (per pull policy),
// config (env, mounts, devices), create, start, postStart hook, each failure turned into the
// Kubernetes waiting reason and event. Only an unavailable runtime is thrown: the sync then
// stops without writing a status that blames the pod.
import { ServicesNotSyncedError } from '../../network/service-directory.js';
import { NameConflictError, RuntimeUnavailableError, StartFailedError } from '../../runtime/errors.js';
import type { ContainerRuntime, SandboxInfo } from '../../runtime/runtime.js';
import { apiServerOf, buildContainerSpec } from './spec.js';
import { InsufficientDevicesError, type DeviceSet } from '../devices.js';
import { ContainerConfigError } from './env.js';
import { runHandler } from '../probes/handlers.js';
import { ReplicaNotBoundError, resolveReplicaAddresses } from './replica-addresses.js';
import type { PodDeps } from '../deps.js';
import type { PodRecord } from '../record.js';
import type { SandboxStart } from '../sandbox/ensure-sandbox.js';
import { killContainer } from './kill.js';
import { VolumeError, type VolumePaths } from '../volumes/set-up.js';
import type { Container } from '../../../api/core/index.js';
import { podStartStages } from '../../../metrics/pod-start-stages.js';

export interface StartInput {
  deps: PodDeps;
  runtime: ContainerRuntime;
  record: PodRecord;
  container: Container;
  isInit: boolean;
  attempt: number;
  /** Default: the attempt number. */
  restartCount?: number;
  sandbox: SandboxInfo;
  /** Set while the sandbox is still starting: containers are made meanwhile, started after. */
  sandboxStart?: SandboxStart | undefined;
  volumes: VolumePaths;
  devices: DeviceSet;
}

/** Milliseconds after which the pod should be looked at again, when the start did not happen. */
export type StartOutcome = { started: boolean; retryInMs?: number };

const CONFIG_RETRY_MS = 5000;
const POST_START_TIMEOUT_MS = 120_000;

function event(input: StartInput, type: 'Normal' | 'Warning', reason: string, message: string): void {
  input.deps.events.container(input.record.pod, input.container.name, input.isInit, type, reason, message);
}

function wait(input: StartInput, reason: string, message: string, retryInMs: number): StartOutcome {
  input.record.waiting.set(input.container.name, { reason, message });
  return { started: false, retryInMs };
}

async function createContainer(input: StartInput): Promise<string | StartOutcome> {
  const { deps, record, container } = input;
  try {
    const spec = await buildContainerSpec({
      pod: record.pod,
      container,
      isInit: input.isInit,
      attempt: input.attempt,
      restartCount: input.restartCount ?? input.attempt,
      sandboxId: input.sandbox.id,
      podIP: input.sandbox.ip,
      runtime: input.runtime,
      volumes: input.volumes,
      devices: input.devices,
      owner: deps.owner,
      nodeAddress: deps.nodeAddress,
      dataDir: deps.dataDir,
      allocatable: deps.allocatable,
      sources: deps.sources,
      gpus: deps.gpus,
      services: deps.services,
      dns: deps.dns,
      apiServer: apiServerOf(deps.api),
      rewriteEnv: (env) => resolveReplicaAddresses(deps.api, record.pod, env, input.sandbox.ip),
    });
    return await input.runtime.createContainer(spec);
  } catch (error) {
    if (error instanceof RuntimeUnavailableError) throw error;
    // Someone (an earlier run of this sync) made it already: look again.
    if (error instanceof NameConflictError) return { started: false, retryInMs: 1000 };
    if (error instanceof ReplicaNotBoundError) {
      event(input, 'Normal', 'WaitingForReplica', error.message);
      return wait(input, error.reason, error.message, 1000);
    }
    // Only right after the agent starts: the container waits rather than start without its
    // service variables (the kubelet fails the same way until its Service informer has synced).
    if (error instanceof ServicesNotSyncedError) return wait(input, 'ContainerCreating', error.message, 1000);
    const message = (error as Error).message;
    event(input, 'Warning', 'Failed', `Error: ${message}`);
    const configError = error instanceof ContainerConfigError || error instanceof InsufficientDevicesError || error instanceof VolumeError;
    return wait(input, configError ? 'CreateContainerConfigError' : 'CreateContainerError', message, configError ? CONFIG_RETRY_MS : 10_000);
  }
}

function needsPodIP(container: Container): boolean {
  return (container.env ?? []).some((v) => v.valueFrom?.fieldRef?.fieldPath.startsWith('status.podIP') === true);
}

/**
 * Waits for a starting sandbox. A container made in a sandbox that then failed to start
 * goes again, so what is left is what a failed sandbox left before (nothing).
 */
async function sandboxRuns(input: StartInput, id: string): Promise<boolean> {
  if (!input.sandboxStart || (await input.sandboxStart.running)) return true;
  await discardNeverRun(input, id);
  return false;
}

/** A container that never ran and never can, in a sandbox that is gone: no restart, no trace. */
async function discardNeverRun(input: StartInput, id: string): Promise<void> {
  await input.runtime.removeContainer(id, { force: true });
  input.deps.cache.forget(id);
}

export function startContainer(input: StartInput): Promise<StartOutcome> {
  const starting = startNew(input);
  // The node is not quiet while a pod starts: the sandbox pool waits with its refills.
  input.deps.reaper.containerStarting(starting);
  return starting;
}

async function startNew(input: StartInput): Promise<StartOutcome> {
  const { deps, record, container } = input;
  const pulled = await deps.puller.ensure(input.runtime, record.pod, container, input.isInit);
  if ('waiting' in pulled) return wait(input, pulled.waiting.reason, pulled.waiting.message, pulled.retryInMs);
  podStartStages.markIfStarting(record.pod, 'imageChecked');
  if (input.sandboxStart && needsPodIP(container)) {
    // The pod IP is known once the sandbox runs.
    const started = await input.sandboxStart.started;
    if (started.kind === 'none') return { started: false };
    input = { ...input, sandbox: started.sandbox, sandboxStart: undefined };
  }
  const created = await createContainer(input);
  if (typeof created !== 'string') return created;
  podStartStages.markIfStarting(record.pod, 'appCreated');
  if (!(await sandboxRuns(input, created))) return { started: false };
  event(input, 'Normal', 'Created', `Created container ${container.name}`);
  return startCreated(input, created);
}

/** Starts a created container (new, or left created by an agent that died in between). */
export async function startCreated(input: StartInput, id: string): Promise<StartOutcome> {
  const { record, container } = input;
  if (!(await sandboxRuns(input, id))) return { started: false };
  record.waiting.delete(container.name);
  try {
    await input.runtime.startContainer(id);
    podStartStages.markIfStarting(record.pod, 'appStarted');
  } catch (error) {
    if (error instanceof RuntimeUnavailableError) throw error;
    if (!(await sandboxStillRuns(input))) {
      // The sandbox died under it (its Docker daemon stopping, say): the next sync makes a new
      // sandbox with a new container.
      await discardNeverRun(input, id);
      return { started: false, retryInMs: 0 };
    }
    record.startFailedAt.set(id, Date.now());
    input.deps.cache.forget(id);
    event(input, 'Warning', 'Failed', `Error: ${(error as Error).message}`);
    if (!(error instanceof StartFailedError)) input.deps.logger.warn('container start failed', { container: container.name, error });
    // No exit event comes for a process that never ran: look again now, under the back-off.
    return { started: false, retryInMs: 0 };
  }
  event(input, 'Normal', 'Started', `Started container ${container.name}`);
  await postStart(input, id);
  return { started: true };
}

async function sandboxStillRuns(input: StartInput): Promise<boolean> {
  try {
    return (await input.runtime.inspectSandbox(input.sandbox.id)).state === 'running';
  } catch (error) {
    if (error instanceof RuntimeUnavailableError) throw error;
    return false;
  }
}

async function postStart(input: StartInput, id: string): Promise<void> {
  const hook = input.container.lifecycle?.postStart;
  if (!hook) return;
  const sandboxId = input.runtime.name === 'process' ? undefined : input.sandbox.id;
  const result = await runHandler({ runtime: input.runtime, containerId: id, sandboxId, container: input.container }, hook, POST_START_TIMEOUT_MS);
  if (result.ok) return;
  const message = `PostStartHook failed: ${result.output}`;
  event(input, 'Warning', 'FailedPostStartHook', message);
  // As the kubelet: a container whose postStart hook failed is killed, and restarts by policy.
  await killContainer(input.deps, input.runtime, input.record.pod, input.container, id, { reason: 'FailedPostStartHook', message, runPreStop: false });
}
