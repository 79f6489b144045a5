// ContainerRuntime on the Docker Engine API (dockerode over /var/run/docker.sock or
// DOCKER_HOST). The work lives in one module per concern; this class wires them.

import type { Readable } from 'node:stream';
import { createContext, type DockerContext, type DockerRuntimeOptions } from './client.js';
import * as containers from './containers.js';
import { events } from './events.js';
import { exec } from './exec.js';
import { inspectImage, pullImage } from './images.js';
import { gpuUnsupported, status, version } from './info.js';
import { PauseImage } from './pause-image.js';
import { listPodObjects } from './pod-objects.js';
import * as sandbox from './sandbox.js';
import { DockerSandboxPool } from './sandbox-pool.js';
import { attach, logs } from './streams.js';
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
  PodObjects,
  PullPolicy,
  RuntimeEvent,
  RuntimeStatus,
  RuntimeVersion,
  SandboxInfo,
  SandboxSpec,
  StartingSandbox,
  StreamSession,
} from '../runtime.js';

export class DockerRuntime implements ContainerRuntime {
  readonly name = 'docker';
  readonly ctx: DockerContext;
  private readonly pause: PauseImage;
  readonly sandboxPool: DockerSandboxPool | undefined;

  constructor(opts: DockerRuntimeOptions = {}) {
    this.ctx = createContext(opts);
    this.pause = new PauseImage(this.ctx);
    this.sandboxPool = this.ctx.claims ? new DockerSandboxPool(this.ctx, this.ctx.claims, this.pause) : undefined;
  }

  version(): Promise<RuntimeVersion> {
    return version(this.ctx);
  }

  status(): Promise<RuntimeStatus> {
    return status(this.ctx);
  }

  gpuUnsupported(): Promise<string | undefined> {
    return gpuUnsupported(this.ctx);
  }

  pullImage(image: string, policy: PullPolicy): Promise<ImageInfo> {
    return pullImage(this.ctx, image, policy);
  }

  inspectImage(image: string): Promise<ImageInfo | undefined> {
    return inspectImage(this.ctx, image);
  }

  /** Builds the pause image now if it is missing (otherwise the first sandbox does). */
  ensurePauseImage(): Promise<void> {
    return this.pause.ensure();
  }

  createSandbox(spec: SandboxSpec): Promise<SandboxInfo> {
    return sandbox.createSandbox(this.ctx, this.pause, spec);
  }

  beginSandbox(spec: SandboxSpec): Promise<StartingSandbox> {
    return sandbox.beginSandbox(this.ctx, this.pause, spec);
  }

  inspectSandbox(id: string): Promise<SandboxInfo> {
    return sandbox.inspectSandbox(this.ctx, id);
  }

  listSandboxes(filter?: ListFilter): Promise<SandboxInfo[]> {
    return sandbox.listSandboxes(this.ctx, filter);
  }

  removeSandbox(id: string, keep?: ReadonlySet<string>): Promise<void> {
    return sandbox.removeSandbox(this.ctx, id, keep);
  }

  createContainer(spec: ContainerSpec): Promise<string> {
    return containers.createContainer(this.ctx, spec);
  }

  startContainer(id: string): Promise<void> {
    return containers.startContainer(this.ctx, id);
  }

  stopContainer(id: string, graceSeconds: number): Promise<void> {
    return containers.stopContainer(this.ctx, id, graceSeconds);
  }

  killContainer(id: string, signal: string): Promise<void> {
    return containers.killContainer(this.ctx, id, signal);
  }

  removeContainer(id: string, opts: { force?: boolean } = {}): Promise<void> {
    return containers.removeContainer(this.ctx, id, opts.force ?? false);
  }

  inspectContainer(id: string): Promise<ContainerStatus> {
    return containers.inspectContainer(this.ctx, id);
  }

  listContainers(filter?: ListFilter): Promise<ContainerSummary[]> {
    return containers.listContainers(this.ctx, filter);
  }

  listPodObjects(filter?: ListFilter): Promise<PodObjects> {
    return listPodObjects(this.ctx, filter);
  }

  waitContainer(id: string, signal?: AbortSignal): Promise<number> {
    return containers.waitContainer(this.ctx, id, signal);
  }

  updateResources(id: string, resources: ContainerResources): Promise<void> {
    return containers.updateResources(this.ctx, id, resources);
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
    return events(this.ctx, filter, signal);
  }
}
