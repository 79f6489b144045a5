// The container runtime interface the node agent drives. One interface, several
// implementations (docker/, process/): the agent never talks to Docker directly, so
// everything it needs to run, observe and rebuild pods goes through here.
//
// Identity: every sandbox and container carries labels (see labels.ts) naming its pod
// and container, so an agent that restarts rebuilds its whole state from
// listContainers() alone — there is no agent-side database.

import type { Readable, Writable } from 'node:stream';

export type PullPolicy = 'IfNotPresent' | 'Always' | 'Never';

/** What the agent needs to know about the engine for node status and conditions. */
export interface RuntimeVersion {
  runtimeName: string;
  runtimeVersion: string;
  apiVersion: string;
  os: string;
  arch: string;
  kernelVersion: string;
}

export interface RuntimeStatus {
  /** False when the engine does not answer; reason/message then say why. */
  ready: boolean;
  reason?: string;
  message?: string;
  /** Present when ready: facts the node reports (capacity, cgroup layout). */
  info?: {
    cpus: number;
    memoryBytes: number;
    cgroupVersion: string;
    cgroupDriver: string;
    storageDriver: string;
    rootDir: string;
    containersRunning: number;
  };
}

export interface ImageInfo {
  /** Content-addressed id (sha256:...), what the pod status reports as imageID. */
  id: string;
  /** The reference the caller asked for, normalised (tag added when missing). */
  ref: string;
  repoTags: string[];
  sizeBytes: number;
}

/** Who a sandbox or container belongs to; stored as labels on the Docker object. */
export interface PodRef {
  uid: string;
  name: string;
  namespace: string;
}

export interface PortMapping {
  containerPort: number;
  /** Published on the node when set; 0 or absent means not published. */
  hostPort?: number;
  protocol?: 'TCP' | 'UDP';
  /** Host address to bind; defaults to the runtime's hostIP (127.0.0.1). */
  hostIP?: string;
}

export interface SandboxSpec {
  pod: PodRef;
  /** Incremented each time the pod's sandbox is recreated. */
  attempt: number;
  hostname?: string;
  /** The pod's hostPorts are published by the sandbox, whose network the pod shares. */
  ports?: PortMapping[];
  hostNetwork?: boolean;
  /** The node's pod CIDR (spec.podCIDR): the pod's address is picked in it, where the runtime has a pod network. */
  addressRange?: string;
  /** Extra labels, e.g. a per-run label for cleanup or the agent's node name. */
  labels?: Record<string, string>;
}

export interface SandboxInfo {
  id: string;
  pod: PodRef;
  attempt: number;
  state: ContainerState;
  /** The pod IP (address on the engine's network); reported, never dialled. */
  ip: string;
  createdAt: Date;
  labels: Record<string, string>;
}

/** A sandbox that exists and is being started (see ContainerRuntime.beginSandbox). */
export interface StartingSandbox {
  /** The sandbox as created: its id is final, it has no IP yet. */
  created: SandboxInfo;
  /** Settles once the sandbox runs, so containers can join it; rejects (the sandbox removed) when it cannot start. */
  running: Promise<void>;
  /** The running sandbox with its IP; rejects as `running` does. */
  started: Promise<SandboxInfo>;
}

/** An unclaimed sandbox of the pool (see SandboxPoolRuntime). */
export interface PoolMember {
  id: string;
  state: ContainerState;
  ip: string;
  /** The node pod range its address was picked in ('' for the engine's own pick). */
  addressRange: string;
  createdAt: Date;
}

/** What a claimed pool sandbox becomes: this pod's sandbox of this attempt, with this hostname. */
export interface SandboxClaim {
  pod: PodRef;
  attempt: number;
  hostname: string;
}

/**
 * Sandboxes made before their pod exists (pods/sandbox/pool.ts decides when and how many). A
 * claimed one is the pod's sandbox from then on: listed, inspected, reported in events and
 * removed as if it had been made for the pod.
 */
export interface SandboxPoolRuntime {
  /** Why pooled sandboxes cannot be used here (their pods' hostnames cannot be set); undefined when they can. */
  unsupported(): Promise<string | undefined>;
  /** Makes one and waits until it runs; `keepFree` addresses of the range must stay free for other pods. */
  create(opts: { labels: Record<string, string>; addressRange?: string | undefined; keepFree: number }): Promise<PoolMember>;
  /** The unclaimed members matching the filter. */
  list(filter: ListFilter): Promise<PoolMember[]>;
  /** After a restart: forgets claims of sandboxes that are gone, and finishes starts a dead agent left half-done. */
  adopt(filter: ListFilter): Promise<void>;
  /** Makes the member the pod's sandbox, durably, before any container joins it. */
  claim(id: string, claim: SandboxClaim): Promise<SandboxInfo>;
}

export interface PodObjects {
  sandboxes: SandboxInfo[];
  containers: ContainerSummary[];
}

export type Mount =
  { type: 'bind'; source: string; target: string; readOnly?: boolean } | { type: 'tmpfs'; target: string; sizeBytes?: number; readOnly?: boolean };

/** Runtime-level resource numbers; the agent converts Kubernetes quantities. */
export interface ContainerResources {
  /** limits.cpu in millicores → CFS quota over a 100 ms period. */
  cpuLimitMillis?: number;
  /** requests.cpu in millicores → relative CPU shares. */
  cpuRequestMillis?: number;
  /** limits.memory in bytes; swap is disabled for the container (as the kubelet does). */
  memoryLimitBytes?: number;
  pidsLimit?: number;
}

export interface SecurityContext {
  /** runAsUser[:runAsGroup], as a uid or name the image knows. */
  user?: string;
  privileged?: boolean;
  readOnlyRootFilesystem?: boolean;
  capAdd?: string[];
  capDrop?: string[];
}

export interface ContainerSpec {
  pod: PodRef;
  sandboxId: string;
  /** The container's name in the pod spec. */
  name: string;
  /** Restart count of this container within the pod; part of its identity. */
  attempt: number;
  image: string;
  /** Kubernetes `command` (replaces the image ENTRYPOINT) and `args` (replaces CMD). */
  command?: string[];
  args?: string[];
  /** Already expanded ($(VAR) resolved by the caller). */
  env?: Record<string, string>;
  workingDir?: string;
  mounts?: Mount[];
  resources?: ContainerResources;
  securityContext?: SecurityContext;
  tty?: boolean;
  /** Keep stdin open (attach can write to it). */
  stdin?: boolean;
  /** Close stdin after the first attach detaches. */
  stdinOnce?: boolean;
  labels?: Record<string, string>;
  /** NVIDIA GPUs (UUIDs) the container is given; Docker passes them to its nvidia runtime. */
  gpus?: string[];
}

export type ContainerState = 'created' | 'running' | 'exited' | 'unknown';

export interface ContainerStatus {
  id: string;
  /** Engine-side name (unique per pod, container and attempt). */
  runtimeName: string;
  state: ContainerState;
  exitCode: number;
  oomKilled: boolean;
  /** Absent while never started / not finished. */
  startedAt?: Date;
  finishedAt?: Date;
  createdAt: Date;
  /** The engine's error, e.g. why a start failed ("executable file not found"). */
  error: string;
  image: string;
  imageId: string;
  pid: number;
  tty: boolean;
  labels: Record<string, string>;
}

export interface ContainerSummary {
  id: string;
  runtimeName: string;
  state: ContainerState;
  image: string;
  imageId: string;
  createdAt: Date;
  labels: Record<string, string>;
}

export interface ListFilter {
  /** Every entry must match; `true` matches any value of the label. */
  labels?: Record<string, string | true>;
  /** Include stopped containers (default true: the agent needs exited ones too). */
  all?: boolean;
}

export interface LogOptions {
  follow?: boolean;
  /** The last N lines of the whole log, before stdout/stderr are filtered (Docker's rule). */
  tail?: number;
  since?: Date;
  timestamps?: boolean;
  stdout?: boolean;
  stderr?: boolean;
}

export interface TerminalSize {
  cols: number;
  rows: number;
}

/** Streams of an exec or attach session. With a TTY, stderr carries nothing. */
export interface StreamSession {
  stdin?: Writable;
  stdout: Readable;
  stderr: Readable;
  resize(size: TerminalSize): Promise<void>;
  /** Tears the connection down; for exec the process may go on running. */
  close(): void;
}

export interface ExecOptions {
  cmd: string[];
  stdin?: boolean;
  tty?: boolean;
  env?: Record<string, string>;
  workingDir?: string;
  user?: string;
}

export interface ExecSession extends StreamSession {
  id: string;
  /** Resolves with the command's exit code once it has ended and its output is read. */
  exitCode(): Promise<number>;
}

/** Whether the session has a TTY is the container's own setting (ContainerSpec.tty). */
export interface AttachOptions {
  stdin?: boolean;
  stdout?: boolean;
  stderr?: boolean;
}

export type RuntimeEvent = {
  type: 'start' | 'die' | 'oom' | 'create' | 'destroy' | 'kill' | 'stop';
  id: string;
  time: Date;
  labels: Record<string, string>;
  exitCode?: number;
};

export interface ContainerRuntime {
  readonly name: string;

  version(): Promise<RuntimeVersion>;
  status(): Promise<RuntimeStatus>;
  /**
   * Why this runtime cannot give containers NVIDIA GPUs, or undefined when it can. Absent:
   * it can (host processes see the host's devices).
   */
  gpuUnsupported?(): Promise<string | undefined>;

  /** Ensures the image is present under the policy; resolves its id. */
  pullImage(image: string, policy: PullPolicy): Promise<ImageInfo>;
  inspectImage(image: string): Promise<ImageInfo | undefined>;

  /** Creates and starts the pod's network infra container. */
  createSandbox(spec: SandboxSpec): Promise<SandboxInfo>;
  /**
   * createSandbox in two halves, for runtimes that can make containers in a sandbox before
   * it runs: resolves once it exists, and starts it meanwhile. The agent creates the app
   * containers during the start, which would otherwise be its idle wait.
   */
  beginSandbox?(spec: SandboxSpec): Promise<StartingSandbox>;
  inspectSandbox(id: string): Promise<SandboxInfo>;
  listSandboxes(filter?: ListFilter): Promise<SandboxInfo[]>;
  /**
   * Removes the sandbox and every container still joined to it but those in `keep`: a dead
   * container outlives a replaced sandbox for `logs --previous`. Idempotent.
   */
  removeSandbox(id: string, keep?: ReadonlySet<string>): Promise<void>;

  /** Creates (does not start) an app container in the sandbox; resolves its id. */
  createContainer(spec: ContainerSpec): Promise<string>;
  startContainer(id: string): Promise<void>;
  /** Stop signal (SIGTERM unless the image says otherwise), SIGKILL after the grace. */
  stopContainer(id: string, graceSeconds: number): Promise<void>;
  killContainer(id: string, signal: string): Promise<void>;
  /** Idempotent: a container that is already gone is not an error. */
  removeContainer(id: string, opts?: { force?: boolean }): Promise<void>;
  inspectContainer(id: string): Promise<ContainerStatus>;
  /** App containers only (sandboxes are listed by listSandboxes). */
  listContainers(filter?: ListFilter): Promise<ContainerSummary[]>;
  /** Optional: listSandboxes and listContainers in one call to the engine. */
  listPodObjects?(filter?: ListFilter): Promise<PodObjects>;
  /** Resolves with the exit code when the container is not running. */
  waitContainer(id: string, signal?: AbortSignal): Promise<number>;
  updateResources(id: string, resources: ContainerResources): Promise<void>;

  /** Demultiplexed stdout and stderr as one byte stream, like `kubectl logs`. */
  logs(id: string, opts?: LogOptions): Promise<Readable>;
  exec(id: string, opts: ExecOptions): Promise<ExecSession>;
  attach(id: string, opts: AttachOptions): Promise<StreamSession>;

  /**
   * Lifecycle events of the sandboxes and containers matching the filter, counted from
   * the call, until the signal aborts. It also ends when the engine connection does
   * (daemon restart): the caller relists and subscribes again.
   */
  events(filter: ListFilter, signal: AbortSignal): AsyncIterable<RuntimeEvent>;

  /** Present where sandboxes can be made ahead of their pods (Docker with a state directory). */
  readonly sandboxPool?: SandboxPoolRuntime | undefined;
}
