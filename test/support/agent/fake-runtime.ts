// For unit tests of the agent's pod sync: a ContainerRuntime held in memory. It keeps sandboxes
// and containers with the labels a real runtime gives them (labels.ts), so the agent reads them
// back exactly as from Docker; the test plays the engine's part (a container exits, a sandbox
// dies, an image is missing, a start fails) and reads what the agent asked for in `calls`.
import { Readable } from 'node:stream';
import { CONTAINER_NAME, SANDBOX_ID, mergeLabels, podLabels } from '../../../src/agent/runtime/labels.js';
import {
  ContainerNotFoundError, ImageNotFoundError, NameConflictError, NotRunningError, SandboxError, StartFailedError,
} from '../../../src/agent/runtime/errors.js';
import type {
  ContainerRuntime, ContainerSpec, ContainerState, ContainerStatus, ContainerSummary, ExecSession, ImageInfo, ListFilter,
  RuntimeEvent, RuntimeStatus, RuntimeVersion, SandboxInfo, SandboxSpec, StartingSandbox, StreamSession,
} from '../../../src/agent/runtime/runtime.js';

interface FakeContainer {
  spec: ContainerSpec;
  status: ContainerStatus;
}

function matches(labels: Record<string, string>, filter: ListFilter | undefined): boolean {
  return Object.entries(filter?.labels ?? {}).every(([k, v]) => (v === true ? k in labels : labels[k] === v));
}

/** A sandbox's pod IP: it has one once it runs. */
function addressOf(sandboxId: string): string {
  return `10.99.0.${sandboxId.replace('sandbox-', '')}`;
}

export class FakeRuntime implements ContainerRuntime {
  /** What the agent asked for, in order: `createSandbox`, `createContainer app`, `startContainer app`, `stopContainer app`, … */
  readonly calls: string[] = [];
  /** Images the engine does not have and cannot pull. */
  readonly missingImages = new Set<string>();
  /** Commands (command[0]) whose start fails as Docker's does when the executable is not found. */
  readonly unstartable = new Set<string>();
  private readonly sandboxes = new Map<string, SandboxInfo>();
  private readonly containers = new Map<string, FakeContainer>();
  private readonly listeners = new Set<(event: RuntimeEvent) => void>();
  private serial = 0;

  /** Sandbox starts begun (beginSandbox) and not yet let go by the test. */
  private readonly held: Array<(error?: Error) => void> = [];
  /**
   * Present when made with `twoHalves`: a sandbox is handed out as soon as it exists, as Docker's
   * is, and runs only when the test lets it (`finishSandboxStart`).
   */
  readonly beginSandbox?: (spec: SandboxSpec) => Promise<StartingSandbox>;

  constructor(readonly name = 'docker', opts: { twoHalves?: boolean } = {}) {
    if (opts.twoHalves) this.beginSandbox = (spec) => this.begin(spec);
  }

  /** Sandbox starts waiting for the test. */
  get sandboxStartsHeld(): number {
    return this.held.length;
  }

  /** Lets the oldest held sandbox start run, or fail (the sandbox is then removed, as Docker's runtime does). */
  finishSandboxStart(failure?: string): void {
    const finish = this.held.shift();
    if (!finish) throw new Error('no sandbox start is held');
    finish(failure === undefined ? undefined : new SandboxError(failure));
  }

  private async begin(spec: SandboxSpec): Promise<StartingSandbox> {
    this.calls.push('createSandbox');
    const created = this.newSandbox(spec, 'created');
    const running = new Promise<void>((resolve, reject) => this.held.push((error) => {
      if (error) {
        this.calls.push('sandbox failed');
        this.sandboxes.delete(created.id);
        return reject(error);
      }
      this.calls.push('sandbox running');
      Object.assign(this.sandboxes.get(created.id)!, { state: 'running', ip: addressOf(created.id) });
      resolve();
    }));
    const started = running.then(() => this.inspectSandbox(created.id));
    running.catch(() => undefined);
    started.catch(() => undefined);
    return { created: { ...created, ip: '' }, running, started };
  }

  private newSandbox(spec: SandboxSpec, state: ContainerState): SandboxInfo {
    const id = `sandbox-${++this.serial}`;
    const labels = mergeLabels(spec.labels, podLabels(spec.pod, 'sandbox', spec.attempt));
    const sandbox: SandboxInfo = { id, pod: spec.pod, attempt: spec.attempt, state, ip: state === 'running' ? addressOf(id) : '', createdAt: new Date(), labels };
    this.sandboxes.set(sandbox.id, sandbox);
    return { ...sandbox };
  }

  /** The containers made of one container name, oldest first. */
  containersNamed(name: string): ContainerStatus[] {
    return [...this.containers.values()].filter((c) => c.spec.name === name).map((c) => ({ ...c.status }));
  }

  sandboxList(): SandboxInfo[] {
    return [...this.sandboxes.values()].map((s) => ({ ...s }));
  }

  /** The newest container of that name, which the test makes exit. */
  exit(name: string, exitCode: number): void {
    const newest = this.containersNamed(name).at(-1);
    if (!newest || newest.state !== 'running') throw new Error(`${name} is not running`);
    this.finish(newest.id, exitCode);
  }

  /** The sandbox dies (its engine restarted, say): its containers with it. */
  killSandbox(id: string): void {
    const sandbox = this.sandboxes.get(id);
    if (!sandbox) throw new ContainerNotFoundError(id);
    sandbox.state = 'exited';
    for (const c of this.containers.values()) if (c.status.labels[SANDBOX_ID] === id && c.status.state === 'running') this.finish(c.status.id, 137);
  }

  private finish(id: string, exitCode: number): void {
    const c = this.containers.get(id)!;
    Object.assign(c.status, { state: 'exited', exitCode, finishedAt: new Date(), pid: 0 });
    this.emit({ type: 'die', id, time: new Date(), labels: c.status.labels, exitCode });
  }

  private emit(event: RuntimeEvent): void {
    for (const listener of this.listeners) listener(event);
  }

  private container(id: string): FakeContainer {
    const c = this.containers.get(id);
    if (!c) throw new ContainerNotFoundError(id);
    return c;
  }

  private nameOf(id: string): string {
    return this.containers.get(id)?.spec.name ?? (this.sandboxes.has(id) ? 'sandbox' : id);
  }

  async version(): Promise<RuntimeVersion> {
    return { runtimeName: 'fake', runtimeVersion: '1', apiVersion: '1', os: 'linux', arch: 'amd64', kernelVersion: '6' };
  }

  async status(): Promise<RuntimeStatus> {
    return { ready: true };
  }

  async pullImage(image: string): Promise<ImageInfo> {
    this.calls.push(`pullImage ${image}`);
    const info = await this.inspectImage(image);
    if (!info) throw new ImageNotFoundError(image, `pull access denied for ${image}, repository does not exist`);
    return info;
  }

  async inspectImage(image: string): Promise<ImageInfo | undefined> {
    if (this.missingImages.has(image)) return undefined;
    return { id: `sha256:${Buffer.from(image).toString('hex')}`, ref: image, repoTags: [image], sizeBytes: 1 };
  }

  async createSandbox(spec: SandboxSpec): Promise<SandboxInfo> {
    this.calls.push('createSandbox');
    return this.newSandbox(spec, 'running');
  }

  async inspectSandbox(id: string): Promise<SandboxInfo> {
    const sandbox = this.sandboxes.get(id);
    if (!sandbox) throw new ContainerNotFoundError(id);
    return { ...sandbox };
  }

  async listSandboxes(filter?: ListFilter): Promise<SandboxInfo[]> {
    return this.sandboxList().filter((s) => matches(s.labels, filter));
  }

  async removeSandbox(id: string, keep?: ReadonlySet<string>): Promise<void> {
    this.calls.push('removeSandbox');
    for (const [cid, c] of this.containers) if (c.status.labels[SANDBOX_ID] === id && !keep?.has(cid)) this.containers.delete(cid);
    this.sandboxes.delete(id);
  }

  async createContainer(spec: ContainerSpec): Promise<string> {
    const runtimeName = `${spec.pod.uid}_${spec.name}_${spec.attempt}`;
    if ([...this.containers.values()].some((c) => c.status.runtimeName === runtimeName)) throw new NameConflictError(runtimeName);
    this.calls.push(`createContainer ${spec.name}`);
    const id = `${spec.name}-${++this.serial}`;
    const labels = mergeLabels(spec.labels, { ...podLabels(spec.pod, 'container', spec.attempt), [CONTAINER_NAME]: spec.name, [SANDBOX_ID]: spec.sandboxId });
    const image = (await this.inspectImage(spec.image))?.id ?? '';
    this.containers.set(id, {
      spec,
      status: { id, runtimeName, state: 'created', exitCode: 0, oomKilled: false, createdAt: new Date(), error: '', image: spec.image, imageId: image, pid: 0, tty: false, labels },
    });
    return id;
  }

  async startContainer(id: string): Promise<void> {
    const c = this.container(id);
    this.calls.push(`startContainer ${c.spec.name}`);
    const executable = c.spec.command?.[0] ?? '';
    if (this.unstartable.has(executable)) {
      c.status.error = `exec: "${executable}": executable file not found in $PATH`;
      throw new StartFailedError(c.status.error);
    }
    Object.assign(c.status, { state: 'running' satisfies ContainerState, startedAt: new Date(), pid: 100 + this.serial, error: '' });
    this.emit({ type: 'start', id, time: new Date(), labels: c.status.labels });
  }

  async stopContainer(id: string): Promise<void> {
    if (this.sandboxes.has(id)) {
      this.calls.push('stopContainer sandbox');
      this.sandboxes.get(id)!.state = 'exited';
      return;
    }
    const c = this.container(id);
    this.calls.push(`stopContainer ${c.spec.name}`);
    if (c.status.state !== 'running') throw new NotRunningError(`container ${id} is not running`);
    this.finish(id, 143);
  }

  async killContainer(id: string, signal: string): Promise<void> {
    const c = this.container(id);
    this.calls.push(`killContainer ${c.spec.name} ${signal}`);
    if (c.status.state !== 'running') throw new NotRunningError(`container ${id} is not running`);
    this.finish(id, 137);
  }

  async removeContainer(id: string): Promise<void> {
    if (this.containers.has(id)) this.calls.push(`removeContainer ${this.nameOf(id)}`);
    this.containers.delete(id);
  }

  async inspectContainer(id: string): Promise<ContainerStatus> {
    return { ...this.container(id).status };
  }

  async listContainers(filter?: ListFilter): Promise<ContainerSummary[]> {
    return [...this.containers.values()]
      .filter((c) => matches(c.status.labels, filter))
      .map(({ status: s }) => ({ id: s.id, runtimeName: s.runtimeName, state: s.state, image: s.image, imageId: s.imageId, createdAt: s.createdAt, labels: s.labels }));
  }

  async waitContainer(id: string): Promise<number> {
    const c = this.container(id);
    if (c.status.state !== 'running') return c.status.exitCode;
    return new Promise((resolve) => {
      const listener = (event: RuntimeEvent): void => {
        if (event.id !== id || event.type !== 'die') return;
        this.listeners.delete(listener);
        resolve(event.exitCode ?? 0);
      };
      this.listeners.add(listener);
    });
  }

  async updateResources(): Promise<void> {}

  async logs(id: string): Promise<Readable> {
    this.container(id);
    return Readable.from([]);
  }

  async exec(): Promise<ExecSession> {
    throw new Error('the fake runtime runs no commands');
  }

  async attach(): Promise<StreamSession> {
    throw new Error('the fake runtime attaches to nothing');
  }

  async *events(filter: ListFilter, signal: AbortSignal): AsyncIterable<RuntimeEvent> {
    const queue: RuntimeEvent[] = [];
    let wake: (() => void) | undefined;
    const listener = (event: RuntimeEvent): void => {
      if (!matches(event.labels, filter)) return;
      queue.push(event);
      wake?.();
    };
    this.listeners.add(listener);
    const aborted = (): void => wake?.();
    signal.addEventListener('abort', aborted, { once: true });
    try {
      while (!signal.aborted) {
        const next = queue.shift();
        if (next) yield next;
        else await new Promise<void>((resolve) => (wake = resolve));
      }
    } finally {
      this.listeners.delete(listener);
      signal.removeEventListener('abort', aborted);
    }
  }
}
