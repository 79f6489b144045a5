// ContainerRuntime for host processes (runtimeClassName: process): no image, no
// namespaces; each container is a command run under a supervisor that outlives the
// agent, with its own log, signals, exit code, environment, working directory and,
// where the host allows, cgroup limits. All state lives under `stateDir`.

import type { Readable } from 'node:stream';
import { cgroupLayout, killContainer, removeContainer, startContainer, stopContainer, updateResources, waitContainer, type Lifecycle } from './lifecycle.js';
import { removeCgroupParent, type CgroupLayout } from './cgroups.js';
import { createContainer, listContainers } from './containers.js';
import { createContext, isId, type ProcessContext, type ProcessRuntimeOptions } from './context.js';
import { EventHub } from './events.js';
import { exec } from './exec.js';
import { ExitWatcher } from './exit-watch.js';
import { imageInfo } from './images.js';
import { status, version } from './info.js';
import { attach, logs } from './logs.js';
import * as sandboxes from './sandboxes.js';
import { inspectContainer } from './state.js';
import { SANDBOX_ID } from '../labels.js';
import type {
  AttachOptions,
  ContainerResources,
  ContainerRuntime,
  ContainerSpec,
  ContainerStatus,
  ContainerSummary,
  ExecOptions,
  ExecSession,
  ImageInfo,
  ListFilter,
  LogOptions,
  PullPolicy,
  RuntimeEvent,
  RuntimeStatus,
  RuntimeVersion,
  SandboxInfo,
  SandboxSpec,
  StreamSession,
} from '../runtime.js';

export class ProcessRuntime implements ContainerRuntime {
  readonly name = 'process';
  readonly ctx: ProcessContext;
  private readonly lc: Lifecycle;

  constructor(opts: ProcessRuntimeOptions) {
    const hub = new EventHub();
    this.ctx = createContext(opts, hub);
    const exits = new ExitWatcher(this.ctx);
    this.lc = { ctx: this.ctx, exits, cgroups: cgroupLayout(this.ctx.cgroupRoot) };
    // While anyone listens for events, every running container is followed for its die.
    hub.onActive = () => void this.followRunning();
  }

  private async followRunning(): Promise<void> {
    const running = await listContainers(this.ctx, { all: false }).catch(() => []);
    for (const c of running) this.lc.exits.follow(c.id);
  }

  cgroups(): Promise<CgroupLayout> {
    return this.lc.cgroups;
  }

  async version(): Promise<RuntimeVersion> {
    return version();
  }

  async status(): Promise<RuntimeStatus> {
    const running = async (): Promise<number> => (await listContainers(this.ctx, { all: false })).length;
    return status(this.ctx, await this.lc.cgroups, running);
  }

  /** See images.ts: there is nothing to pull, under any policy. */
  async pullImage(image: string, _policy: PullPolicy): Promise<ImageInfo> {
    return imageInfo(image);
  }

  async inspectImage(image: string): Promise<ImageInfo | undefined> {
    return imageInfo(image);
  }

  createSandbox(spec: SandboxSpec): Promise<SandboxInfo> {
    return sandboxes.createSandbox(this.ctx, spec);
  }

  inspectSandbox(id: string): Promise<SandboxInfo> {
    return sandboxes.inspectSandbox(this.ctx, id);
  }

  listSandboxes(filter?: ListFilter): Promise<SandboxInfo[]> {
    return sandboxes.listSandboxes(this.ctx, filter);
  }

  async removeSandbox(id: string, keep?: ReadonlySet<string>): Promise<void> {
    if (!isId(id)) return;
    await sandboxes.removeSandbox(this.ctx, id, async (sandboxId) => {
      const members = await listContainers(this.ctx, { labels: { [SANDBOX_ID]: sandboxId } });
      await Promise.all(members.filter((c) => !keep?.has(c.id)).map((c) => this.removeContainer(c.id, { force: true })));
    });
  }

  createContainer(spec: ContainerSpec): Promise<string> {
    return createContainer(this.ctx, spec);
  }

  startContainer(id: string): Promise<void> {
    return startContainer(this.lc, id);
  }

  stopContainer(id: string, graceSeconds: number): Promise<void> {
    return stopContainer(this.lc, id, graceSeconds);
  }

  killContainer(id: string, signal: string): Promise<void> {
    return killContainer(this.lc, id, signal);
  }

  removeContainer(id: string, opts: { force?: boolean } = {}): Promise<void> {
    if (!isId(id)) return Promise.resolve();
    return removeContainer(this.lc, id, opts.force ?? false);
  }

  inspectContainer(id: string): Promise<ContainerStatus> {
    return inspectContainer(this.ctx, id);
  }

  listContainers(filter?: ListFilter): Promise<ContainerSummary[]> {
    return listContainers(this.ctx, filter);
  }

  waitContainer(id: string, signal?: AbortSignal): Promise<number> {
    return waitContainer(this.lc, id, signal);
  }

  updateResources(id: string, resources: ContainerResources): Promise<void> {
    return updateResources(this.lc, id, resources);
  }

  logs(id: string, opts?: LogOptions): Promise<Readable> {
    return logs(this.ctx, id, opts);
  }

  exec(id: string, opts: ExecOptions): Promise<ExecSession> {
    return exec(this.ctx, id, opts);
  }

  attach(id: string, opts: AttachOptions): Promise<StreamSession> {
    return attach(this.ctx, id, opts);
  }

  events(filter: ListFilter, signal: AbortSignal): AsyncIterable<RuntimeEvent> {
    const stream = this.ctx.hub.subscribe(filter, signal);
    signal.addEventListener(
      'abort',
      () => {
        if (!this.ctx.hub.active) this.lc.exits.idle();
      },
      { once: true },
    );
    return stream;
  }

  /** Removes the cgroup parent directories if they are empty (uninstall, tests). */
  async removeCgroupParent(): Promise<void> {
    await removeCgroupParent(await this.lc.cgroups, this.ctx.cgroupParent);
  }
}
