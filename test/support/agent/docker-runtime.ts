// Shared set-up for the tests that run against the real Docker Engine: start it
// (installing it if needed), build the local images, label everything a test run
// makes, and remove it all afterwards.

import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { after, before } from 'node:test';
import Docker from 'dockerode';
import { DockerRuntime } from '../../../src/agent/runtime/docker/docker-runtime.js';
import { KIND } from '../../../src/agent/runtime/labels.js';
import type { ContainerSpec, PodRef, SandboxInfo, SandboxSpec } from '../../../src/agent/runtime/runtime.js';

export const IMAGE_V1 = 'drover-test/busybox:1';
export const IMAGE_V2 = 'drover-test/busybox:2';
/** Marks every object of this test process, so cleanup never touches another run's. */
export const RUN_LABEL = 'drover.dev/test-run';
export const RUN_ID = randomUUID().slice(0, 8);

import { ensureDocker } from '../repo.js';

/** Docker running and the test images built (see ../repo.ts). */
export { ensureDocker };

export function newRuntime(opts: ConstructorParameters<typeof DockerRuntime>[0] = {}): DockerRuntime {
  return new DockerRuntime(opts);
}

export function newPod(name: string): PodRef {
  return { uid: randomUUID(), name: `${name}-${RUN_ID}`, namespace: 'test' };
}

export const runLabels = (): Record<string, string> => ({ [RUN_LABEL]: RUN_ID });

export async function startSandbox(rt: DockerRuntime, pod: PodRef, extra: Partial<SandboxSpec> = {}): Promise<SandboxInfo> {
  return rt.createSandbox({ pod, attempt: 0, labels: runLabels(), ...extra });
}

export interface DockerSandboxBed {
  readonly rt: DockerRuntime;
  readonly pod: PodRef;
  /** The pod's sandbox, started by the block's before(). */
  readonly sandbox: SandboxInfo;
}

/** For a describe block: Docker up and a sandbox for a new pod `name` before its tests; every container of this run removed after. */
export function useDockerSandbox(name: string): DockerSandboxBed {
  const rt = newRuntime();
  const pod = newPod(name);
  let sandbox: SandboxInfo | undefined;
  before(
    async () => {
      ensureDocker();
      sandbox = await startSandbox(rt, pod);
    },
    { timeout: 600_000 },
  );
  after(() => cleanup());
  return {
    rt,
    pod,
    get sandbox(): SandboxInfo {
      if (!sandbox) throw new Error('the sandbox is started in before()');
      return sandbox;
    },
  };
}

export function containerSpec(pod: PodRef, sandbox: SandboxInfo, name: string, rest: Partial<ContainerSpec> = {}): ContainerSpec {
  return { pod, sandboxId: sandbox.id, name, attempt: 0, image: IMAGE_V1, labels: runLabels(), ...rest };
}

/** Creates and starts a container in the sandbox; resolves its id. */
export async function run(rt: DockerRuntime, pod: PodRef, sandbox: SandboxInfo, name: string, rest: Partial<ContainerSpec> = {}): Promise<string> {
  const id = await rt.createContainer(containerSpec(pod, sandbox, name, rest));
  await rt.startContainer(id);
  return id;
}

/** Removes every container this test process created. */
export async function cleanup(): Promise<void> {
  await removeContainersLabelled(`${RUN_LABEL}=${RUN_ID}`);
}

/** Removes every container that carries `label` (`key=value`), app containers before their sandboxes. */
export async function removeContainersLabelled(label: string): Promise<void> {
  const docker = new Docker();
  const list = await docker.listContainers({ all: true, filters: { label: [label] } });
  // App containers first: removing a sandbox under them works, but this is the order the agent uses.
  list.sort((a, b) => Number(a.Labels[KIND] === 'sandbox') - Number(b.Labels[KIND] === 'sandbox'));
  for (const c of list)
    await docker
      .getContainer(c.Id)
      .remove({ force: true, v: true })
      .catch(() => undefined);
}

export async function readAll(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

/** A port nothing listens on, for a hostPort (see ../free-port.ts). */
export { freePort } from '../free-port.js';
