// Shared set-up for the process runtime's tests: a runtime on a fresh state directory
// and cgroup parent, and the removal of everything a test made.

import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { ProcessRuntime } from '../../../src/agent/runtime/process/process-runtime.js';
import type { ContainerSpec, PodRef, SandboxInfo } from '../../../src/agent/runtime/runtime.js';

export interface Harness {
  rt: ProcessRuntime;
  stateDir: string;
  cgroupParent: string;
  pod: PodRef;
  sandbox: SandboxInfo;
  /** A new runtime on the same state (an agent restart). */
  reopen(): ProcessRuntime;
  /** Creates and starts a container in the sandbox; resolves its id. */
  run(name: string, rest?: Partial<ContainerSpec>): Promise<string>;
  spec(name: string, rest?: Partial<ContainerSpec>): ContainerSpec;
  cleanup(): Promise<void>;
}

export async function harness(label: string): Promise<Harness> {
  const stateDir = mkdtempSync(join(tmpdir(), `drover-process-${label}-`));
  const cgroupParent = `drover-test-${process.pid}-${label}`;
  const opts = { stateDir, cgroupParent };
  const rt = new ProcessRuntime(opts);
  const pod: PodRef = { uid: randomUUID(), name: `${label}-pod`, namespace: 'test' };
  const sandbox = await rt.createSandbox({ pod, attempt: 0 });
  const spec = (name: string, rest: Partial<ContainerSpec> = {}): ContainerSpec => ({
    pod,
    sandboxId: sandbox.id,
    name,
    attempt: 0,
    image: 'host',
    ...rest,
  });
  return {
    rt,
    stateDir,
    cgroupParent,
    pod,
    sandbox,
    spec,
    reopen: () => new ProcessRuntime(opts),
    run: async (name, rest = {}) => {
      const id = await rt.createContainer(spec(name, rest));
      await rt.startContainer(id);
      return id;
    },
    cleanup: async () => {
      for (const s of await rt.listSandboxes()) await rt.removeSandbox(s.id);
      for (const c of await rt.listContainers()) await rt.removeContainer(c.id, { force: true });
      await rt.removeCgroupParent();
      rmSync(stateDir, { recursive: true, force: true });
    },
  };
}

export async function readAll(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

export async function logText(rt: ProcessRuntime, id: string): Promise<string> {
  return readAll(await rt.logs(id));
}

/** [state, pgrp] of a process, from /proc/<pid>/stat. */
function statOf(pid: string): [string, number] | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return [fields[0] ?? '', Number(fields[2])];
  } catch {
    return undefined;
  }
}

/**
 * True while the process or any member of its process group runs. Zombies do not
 * count: killed orphans wait for init to reap them, and not every init is quick.
 */
export function groupAlive(pid: number): boolean {
  return readdirSync('/proc').some((entry) => {
    if (!/^\d+$/.test(entry)) return false;
    const stat = statOf(entry);
    return stat !== undefined && stat[0] !== 'Z' && (Number(entry) === pid || stat[1] === pid);
  });
}

export function processAlive(pid: number): boolean {
  const stat = statOf(String(pid));
  return stat !== undefined && stat[0] !== 'Z';
}
