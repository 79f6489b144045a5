// Shared set-up for the tests that run against the real Docker Engine: start it
// (installing it if needed), build the local images, label everything a test run
// makes, and remove it all afterwards.

import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import Docker from 'dockerode';
import { DockerRuntime } from '../../../src/agent/runtime/docker/docker-runtime.js';
import type { ContainerSpec, PodRef, SandboxInfo, SandboxSpec } from '../../../src/agent/runtime/runtime.js';

export const IMAGE_V1 = 'drover-test/busybox:1';
export const IMAGE_V2 = 'drover-test/busybox:2';
/** Marks every object of this test process, so cleanup never touches another run's. */
export const RUN_LABEL = 'drover.dev/test-run';
export const RUN_ID = randomUUID().slice(0, 8);

function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('test-support: cannot find the repository root');
    dir = parent;
  }
  return dir;
}

function runScript(name: string): void {
  const script = join(repoRoot(), 'scripts', name);
  try {
    execFileSync('bash', [script], { stdio: ['ignore', 'pipe', 'pipe'], timeout: 600_000 });
  } catch (err) {
    const e = err as { stderr?: Buffer; stdout?: Buffer; message: string };
    throw new Error(
      `${name} failed — these tests need a real Docker Engine:\n${e.stderr?.toString() ?? ''}${e.stdout?.toString() ?? ''}${e.message}`,
    );
  }
}

/** Starts Docker and builds the test images; throws (loudly) when Docker cannot be had. */
export function ensureDocker(): void {
  runScript('ensure-docker.sh');
  runScript('build-test-images.sh');
}

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
  const docker = new Docker();
  const list = await docker.listContainers({ all: true, filters: { label: [`${RUN_LABEL}=${RUN_ID}`] } });
  // App containers first: removing a sandbox under them works, but this is the order the agent uses.
  list.sort((a, b) => Number(a.Labels['drover.dev/kind'] === 'sandbox') - Number(b.Labels['drover.dev/kind'] === 'sandbox'));
  for (const c of list) await docker.getContainer(c.Id).remove({ force: true, v: true }).catch(() => undefined);
}

export async function readAll(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * A port nothing listens on, for a hostPort. Taken below Linux's ephemeral range (32768+),
 * where other tests' outgoing connections pick their local ports: a port from up there
 * (what listen(0) hands out) could be taken again before Docker binds it.
 */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const free = await new Promise<boolean>((resolve) => {
      const probe = createServer();
      probe.once('error', () => resolve(false));
      probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
    });
    if (free) return port;
  }
}
