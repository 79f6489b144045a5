// For tests: a ContainerRuntime held in memory. It keeps sandboxes and containers with the labels
// a real runtime gives them (labels.ts), so the agent reads them back exactly as from Docker.
// Two ways in: the agent's pod sync makes and starts them through the interface while the test
// plays the engine's part (a container exits, a sandbox dies, an image is missing, a start
// fails) and reads what was asked for in `calls`; or a test seeds running ones (addSandbox,
// addContainer) for the read paths — logs, exec and attach over in-memory streams, signals.
import { PassThrough, Readable } from 'node:stream';
import { CONTAINER_NAME, SANDBOX_ID, mergeLabels, podLabels } from '../../../src/agent/runtime/labels.js';
import {
  ContainerNotFoundError,
  ImageNotFoundError,
  NameConflictError,
  NotRunningError,
  SandboxError,
  StartFailedError,
} from '../../../src/agent/runtime/errors.js';
import type {
  AttachOptions,
  ContainerRuntime,
  ContainerSpec,
  ContainerState,
  ContainerStatus,
  ContainerSummary,
  ExecOptions,
  ExecSession,
  ImageInfo,
  ListFilter,
  LogOptions,
  PodRef,
  PoolMember,
  RuntimeEvent,
  RuntimeStatus,
  RuntimeVersion,
  SandboxInfo,
  SandboxPoolRuntime,
  SandboxSpec,
  StartingSandbox,
  StreamSession,
  TerminalSize,
} from '../../../src/agent/runtime/runtime.js';

export interface FakeIo {
  stdin?: PassThrough;
  stdout: PassThrough;
  stderr: PassThrough;
}

/** Runs an exec'd "command" against in-memory streams; resolves with its exit code. */
export type FakeCommand = (cmd: string[], io: FakeIo) => Promise<number>;

/** echo ARGS → stdout; fail N → exit N after "oops" on stderr; cat → stdin to stdout. */
export const defaultCommand: FakeCommand = async (cmd, io) => {
  if (cmd[0] === 'echo') {
    io.stdout.write(`${cmd.slice(1).join(' ')}\n`);
    return 0;
  }
  if (cmd[0] === 'fail') {
    io.stderr.write('oops\n');
    return Number(cmd[1] ?? 1);
  }
  if (cmd[0] === 'cat' && io.stdin) {
    io.stdin.pipe(io.stdout, { end: false });
    await new Promise((resolve) => io.stdin!.once('end', resolve));
    return 0;
  }
  return 127;
};

interface FakeContainer {
  name: string;
  /** The command it runs (command[0] decides whether its start fails). */
  command: string[] | undefined;
  status: ContainerStatus;
}

function matches(labels: Record<string, string>, filter: ListFilter | undefined): boolean {
  return Object.entries(filter?.labels ?? {}).every(([k, v]) => (v === true ? k in labels : labels[k] === v));
}

/** A summary that shares the container's labels, so a test may relabel it. */
function summaryOf(s: ContainerStatus): ContainerSummary {
  return { id: s.id, runtimeName: s.runtimeName, state: s.state, image: s.image, imageId: s.imageId, createdAt: s.createdAt, labels: s.labels };
}

/** A sandbox's pod IP: it has one once it runs. */
function addressOf(sandboxId: string): string {
  return `10.99.0.${sandboxId.replace(/\D/g, '') || '2'}`;
}

export class FakeRuntime implements ContainerRuntime {
  /** What the agent asked for, in order: `createSandbox`, `createContainer app`, `startContainer app`, `stopContainer app`, … */
  readonly calls: string[] = [];
  /** Images the engine does not have and cannot pull. */
  readonly missingImages = new Set<string>();
  /** Commands (command[0]) whose start fails as Docker's does when the executable is not found. */
  readonly unstartable = new Set<string>();
  readonly logCalls: Array<{ id: string; options: LogOptions }> = [];
  readonly execCalls: Array<{ id: string; options: ExecOptions; resizes: TerminalSize[] }> = [];
  readonly kills: Array<{ id: string; signal: string }> = [];
  logText = 'line 1\nline 2\nline 3\n';
  command: FakeCommand = defaultCommand;
  /**
   * Present when made with `twoHalves`: a sandbox is handed out as soon as it exists, as Docker's
   * is, and runs only when the test lets it (`finishSandboxStart`).
   */
  readonly beginSandbox?: (spec: SandboxSpec) => Promise<StartingSandbox>;
  private readonly sandboxById = new Map<string, SandboxInfo>();
  private readonly containerById = new Map<string, FakeContainer>();
  private readonly listeners = new Set<(event: RuntimeEvent) => void>();
  /** Sandbox starts begun (beginSandbox) and not yet let go by the test. */
  private readonly held: Array<(error?: Error) => void> = [];
  private serial = 0;

  constructor(
    readonly name = 'docker',
    opts: { twoHalves?: boolean } = {},
  ) {
    if (opts.twoHalves) this.beginSandbox = (spec) => this.begin(spec);
  }

  /** The runtime itself: the interface the code under test takes. */
  asRuntime(): ContainerRuntime {
    return this;
  }

  // ---- the test's side: seeding, and playing the engine ----

  /** Every sandbox, oldest first (the objects themselves: a test may relabel one). */
  get sandboxes(): SandboxInfo[] {
    return [...this.sandboxById.values()];
  }

  /** Every container, oldest first (labels are the container's own: a test may relabel one). */
  get containers(): ContainerSummary[] {
    return [...this.containerById.values()].map((c) => summaryOf(c.status));
  }

  /** The containers of one container name, oldest first. */
  containersNamed(name: string): ContainerStatus[] {
    return [...this.containerById.values()].filter((c) => c.name === name).map((c) => ({ ...c.status }));
  }

  /** A running sandbox, as an agent would have left it. */
  addSandbox(pod: PodRef, attempt: number, state: ContainerState = 'running'): string {
    const id = `sandbox-${pod.uid}-${attempt}`;
    this.sandboxById.set(id, { id, pod, attempt, state, ip: '10.0.0.2', createdAt: new Date(), labels: podLabels(pod, 'sandbox', attempt) });
    return id;
  }

  /** A running container, as an agent would have left it. */
  addContainer(pod: PodRef, container: string, attempt: number, createdAt = new Date()): string {
    const id = `${container}-${pod.uid}-${attempt}`;
    const labels = { ...podLabels(pod, 'container', attempt), [CONTAINER_NAME]: container };
    this.containerById.set(id, {
      name: container,
      command: undefined,
      status: {
        id,
        runtimeName: id,
        state: 'running',
        exitCode: 0,
        oomKilled: false,
        createdAt,
        startedAt: createdAt,
        error: '',
        image: 'img',
        imageId: 'sha256:1',
        pid: 1,
        tty: false,
        labels,
      },
    });
    return id;
  }

  /** The newest container of that name exits. */
  exit(name: string, exitCode: number): void {
    const newest = this.containersNamed(name).at(-1);
    if (!newest || newest.state !== 'running') throw new Error(`${name} is not running`);
    this.finish(newest.id, exitCode);
  }

  /** The sandbox dies (its engine restarted, say): its containers with it. */
  killSandbox(id: string): void {
    const sandbox = this.sandboxById.get(id);
    if (!sandbox) throw new ContainerNotFoundError(id);
    sandbox.state = 'exited';
    for (const c of this.containerById.values()) if (c.status.labels[SANDBOX_ID] === id && c.status.state === 'running') this.finish(c.status.id, 137);
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

  private finish(id: string, exitCode: number): void {
    const c = this.containerById.get(id)!;
    Object.assign(c.status, { state: 'exited', exitCode, finishedAt: new Date(), pid: 0 });
    this.emit({ type: 'die', id, time: new Date(), labels: c.status.labels, exitCode });
  }

  private emit(event: RuntimeEvent): void {
    for (const listener of this.listeners) listener(event);
  }

  private container(id: string): FakeContainer {
    const c = this.containerById.get(id);
    if (!c) throw new ContainerNotFoundError(id);
    return c;
  }

  /** Exec, logs, attach and signals reach sandboxes too (a host-network pod's is its container). */
  private known(id: string): void {
    if (!this.containerById.has(id) && !this.sandboxById.has(id)) throw new ContainerNotFoundError(id);
  }

  // ---- the ContainerRuntime interface ----

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

  private async begin(spec: SandboxSpec): Promise<StartingSandbox> {
    this.calls.push('createSandbox');
    const created = this.newSandbox(spec, 'created');
    const running = new Promise<void>((resolve, reject) =>
      this.held.push((error) => {
        if (error) {
          this.calls.push('sandbox failed');
          this.sandboxById.delete(created.id);
          return reject(error);
        }
        this.calls.push('sandbox running');
        Object.assign(this.sandboxById.get(created.id)!, { state: 'running', ip: addressOf(created.id) });
        resolve();
      }),
    );
    const started = running.then(() => this.inspectSandbox(created.id));
    running.catch(() => undefined);
    started.catch(() => undefined);
    return { created, running, started };
  }

  private newSandbox(spec: SandboxSpec, state: ContainerState): SandboxInfo {
    const id = `sandbox-${++this.serial}`;
    const labels = mergeLabels(spec.labels, podLabels(spec.pod, 'sandbox', spec.attempt));
    const sandbox: SandboxInfo = {
      id,
      pod: spec.pod,
      attempt: spec.attempt,
      state,
      ip: state === 'running' ? addressOf(id) : '',
      createdAt: new Date(),
      labels,
    };
    this.sandboxById.set(id, sandbox);
    return { ...sandbox };
  }

  async inspectSandbox(id: string): Promise<SandboxInfo> {
    const sandbox = this.sandboxById.get(id);
    if (!sandbox) throw new ContainerNotFoundError(id);
    return { ...sandbox };
  }

  async listSandboxes(filter?: ListFilter): Promise<SandboxInfo[]> {
    return this.sandboxes.filter((s) => matches(s.labels, filter)).map((s) => ({ ...s }));
  }

  async removeSandbox(id: string, keep?: ReadonlySet<string>): Promise<void> {
    this.calls.push('removeSandbox');
    this.poolMembers.delete(id);
    for (const [cid, c] of this.containerById) if (c.status.labels[SANDBOX_ID] === id && !keep?.has(cid)) this.containerById.delete(cid);
    this.sandboxById.delete(id);
  }

  // ---- the sandbox pool (present after enablePool) ----

  /** Unclaimed pool sandboxes, with their labels. */
  readonly poolMembers = new Map<string, PoolMember & { labels: Record<string, string> }>();
  sandboxPool: SandboxPoolRuntime | undefined;

  /** Gives the runtime a sandbox pool: members are made running at once, a claim makes one a pod's sandbox. */
  enablePool(): this {
    const members = this.poolMembers;
    this.sandboxPool = {
      unsupported: async () => undefined,
      adopt: async () => undefined,
      create: async (opts) => {
        this.calls.push('createPoolSandbox');
        const id = `pool-${++this.serial}`;
        const member = { id, state: 'running' as const, ip: addressOf(id), addressRange: opts.addressRange ?? '', createdAt: new Date(), labels: opts.labels };
        members.set(id, member);
        return { ...member };
      },
      list: async (filter) => [...members.values()].filter((m) => matches(m.labels, filter)).map((m) => ({ ...m })),
      claim: async (id, claim) => {
        const member = members.get(id);
        if (!member || member.state !== 'running') throw new SandboxError(`pool sandbox ${id} is not running`);
        this.calls.push('claimPoolSandbox');
        members.delete(id);
        const labels = mergeLabels(member.labels, podLabels(claim.pod, 'sandbox', claim.attempt));
        const sandbox: SandboxInfo = { id, pod: claim.pod, attempt: claim.attempt, state: 'running', ip: member.ip, createdAt: member.createdAt, labels };
        this.sandboxById.set(id, sandbox);
        return { ...sandbox };
      },
    };
    return this;
  }

  /** A pool sandbox dies behind the agent's back. */
  killPoolSandbox(id: string): void {
    const member = this.poolMembers.get(id);
    if (member) member.state = 'exited';
  }

  async createContainer(spec: ContainerSpec): Promise<string> {
    const runtimeName = `${spec.pod.uid}_${spec.name}_${spec.attempt}`;
    if ([...this.containerById.values()].some((c) => c.status.runtimeName === runtimeName)) throw new NameConflictError(runtimeName);
    this.calls.push(`createContainer ${spec.name}`);
    const id = `${spec.name}-${++this.serial}`;
    const labels = mergeLabels(spec.labels, { ...podLabels(spec.pod, 'container', spec.attempt), [CONTAINER_NAME]: spec.name, [SANDBOX_ID]: spec.sandboxId });
    const imageId = (await this.inspectImage(spec.image))?.id ?? '';
    this.containerById.set(id, {
      name: spec.name,
      command: spec.command,
      status: {
        id,
        runtimeName,
        state: 'created',
        exitCode: 0,
        oomKilled: false,
        createdAt: new Date(),
        error: '',
        image: spec.image,
        imageId,
        pid: 0,
        tty: false,
        labels,
      },
    });
    return id;
  }

  async startContainer(id: string): Promise<void> {
    const c = this.container(id);
    this.calls.push(`startContainer ${c.name}`);
    const executable = c.command?.[0] ?? '';
    if (this.unstartable.has(executable)) {
      c.status.error = `exec: "${executable}": executable file not found in $PATH`;
      throw new StartFailedError(c.status.error);
    }
    Object.assign(c.status, { state: 'running', startedAt: new Date(), pid: 100 + this.serial, error: '' });
    this.emit({ type: 'start', id, time: new Date(), labels: c.status.labels });
  }

  async stopContainer(id: string): Promise<void> {
    const sandbox = this.sandboxById.get(id);
    if (sandbox) {
      this.calls.push('stopContainer sandbox');
      sandbox.state = 'exited';
      return;
    }
    const c = this.container(id);
    this.calls.push(`stopContainer ${c.name}`);
    if (c.status.state !== 'running') throw new NotRunningError(`container ${id} is not running`);
    this.finish(id, 143);
  }

  /** Signals are recorded; only SIGKILL ends the container (a program may catch any other). */
  async killContainer(id: string, signal: string): Promise<void> {
    this.known(id);
    this.kills.push({ id, signal });
    const c = this.containerById.get(id);
    if (c && /^(SIG)?KILL$/.test(signal) && c.status.state === 'running') this.finish(id, 137);
  }

  async removeContainer(id: string): Promise<void> {
    const c = this.containerById.get(id);
    if (c) this.calls.push(`removeContainer ${c.name}`);
    this.containerById.delete(id);
  }

  async inspectContainer(id: string): Promise<ContainerStatus> {
    return { ...this.container(id).status };
  }

  async listContainers(filter?: ListFilter): Promise<ContainerSummary[]> {
    return this.containers.filter((c) => matches(c.labels, filter));
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

  async logs(id: string, options: LogOptions = {}): Promise<Readable> {
    this.known(id);
    this.logCalls.push({ id, options });
    return Readable.from([Buffer.from(this.logText)]);
  }

  private session(withStdin: boolean): { io: FakeIo; streams: Omit<StreamSession, 'resize' | 'close'> } {
    const io: FakeIo = { stdout: new PassThrough(), stderr: new PassThrough(), ...(withStdin ? { stdin: new PassThrough() } : {}) };
    return { io, streams: { stdout: io.stdout, stderr: io.stderr, ...(io.stdin ? { stdin: io.stdin } : {}) } };
  }

  async exec(id: string, options: ExecOptions): Promise<ExecSession> {
    this.known(id);
    const record = { id, options, resizes: [] as TerminalSize[] };
    this.execCalls.push(record);
    const { io, streams } = this.session(options.stdin ?? false);
    const code = this.command(options.cmd, io).finally(() => {
      io.stdout.end();
      io.stderr.end();
    });
    return { id: 'exec-1', ...streams, exitCode: () => code, resize: async (size) => void record.resizes.push(size), close: () => io.stdout.destroy() };
  }

  async attach(id: string, options: AttachOptions): Promise<StreamSession> {
    this.known(id);
    const { io, streams } = this.session(options.stdin ?? false);
    io.stdout.end('attached output\n');
    io.stderr.end();
    return { ...streams, resize: async () => undefined, close: () => undefined };
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
