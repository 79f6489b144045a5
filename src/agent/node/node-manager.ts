// Registers the Node and keeps its status current: a health check every few seconds (runtime
// and host pressure), a status write when anything but the heartbeat changed or every 10 s,
// and the Lease renewal. Pod workers learn from here when the runtime comes back.
import type { KubeObject } from '../../api/meta.js';
import { isAlreadyExists, isNotFound, resources, type ApiClient, type Logger, type ResourceClient } from '../../client/index.js';
import type { ContainerRuntime } from '../runtime/runtime.js';
import { startLoop, type Loop } from '../util/loop.js';
import { hostFacts, hostPressure, type HostFacts } from './host-info.js';
import { NodeLease } from './node-lease.js';
import { buildNodeStatus, nodeLabels, nodeObject, statusChanged, type DeviceReport, type ReportedNodeStatus, type RuntimeHealth } from './node-object.js';

/** Discovered devices (the GPU monitor): what they add to the Node. */
export interface NodeDevices {
  report(): DeviceReport;
  labels(): Record<string, string>;
  /** Annotations to write now; undefined when nothing changed enough to be worth a write. */
  annotationsDue(): Record<string, string> | undefined;
  /** The annotations annotationsDue gave were not written. */
  annotationsFailed(): void;
}

export interface NodeManagerOptions {
  api: ApiClient;
  nodeName: string;
  nodeAddress: string;
  streamingPort: number;
  dataDir: string;
  labels: Readonly<Record<string, string>>;
  /** Published on the Node at registration (where the agent keeps local-path volumes). */
  annotations?: Readonly<Record<string, string>>;
  extendedResources: Readonly<Record<string, number>>;
  devices?: NodeDevices | undefined;
  /** The runtime whose health makes the node Ready. */
  runtime: ContainerRuntime;
  logger: Logger;
  /** Called when the runtime answers again after being down. */
  onRuntimeReady?: () => void;
  /** Called once the node IPAM has given the Node its pod CIDR (spec.podCIDR). */
  onPodCidr?: (podCidr: string) => void;
  heartbeatMs?: number;
  healthCheckMs?: number;
  leaseRenewMs?: number;
}

interface NodeObject extends KubeObject {
  spec?: { podCIDR?: string };
  status?: Partial<ReportedNodeStatus>;
}

/** How often a Node without a pod CIDR is read again until the node IPAM gives it one. */
const POD_CIDR_POLL_MS = 500;
/**
 * How long it is polled for. A cluster without node IPAM (no controller manager, a full range)
 * never gives one: from then on the status writes, whose answers carry the Node, tell.
 */
const POD_CIDR_POLL_FOR_MS = 30_000;

export class NodeManager {
  private readonly nodes: ResourceClient<NodeObject>;
  private readonly lease: NodeLease;
  private facts: HostFacts | undefined;
  private serverStatus: Partial<ReportedNodeStatus> | undefined;
  private written: ReportedNodeStatus | undefined;
  private writtenAt = 0;
  private runtimeVersion = '';
  private uid: string | undefined;
  private loops: Loop[] = [];
  private statusLoop: Loop | undefined;
  private podCidrLoop: Loop | undefined;
  private cidr: string | undefined;
  /** Assumed ready until the first check says otherwise. */
  runtimeReady = true;

  constructor(private readonly opts: NodeManagerOptions) {
    this.nodes = opts.api.resource<NodeObject>(resources.nodes);
    this.lease = new NodeLease(opts.api, opts.nodeName, () => this.uid);
  }

  /** Creates the Node (or brings an existing one's labels up to date) and writes its status. */
  async register(): Promise<void> {
    this.facts = await hostFacts(this.opts.dataDir);
    const labels = nodeLabels(this.opts.nodeName, this.facts, { ...this.opts.devices?.labels(), ...this.opts.labels });
    let node: NodeObject;
    try {
      node = await this.nodes.create(nodeObject(this.opts.nodeName, labels, { ...this.opts.annotations }));
    } catch (error) {
      if (!isAlreadyExists(error)) throw error;
      // A re-registration keeps what others set (taints, cordon, user labels) and refreshes ours.
      node = await this.nodes.patch(this.opts.nodeName, 'merge', {
        metadata: { labels, ...(this.opts.annotations ? { annotations: this.opts.annotations } : {}) },
      });
    }
    this.noteNode(node);
    await this.heartbeat(true);
    await this.lease.renew();
  }

  start(): void {
    const { logger } = this.opts;
    this.statusLoop = startLoop('node status', this.opts.healthCheckMs ?? 3000, () => this.heartbeat(false), logger);
    this.loops.push(this.statusLoop);
    this.loops.push(startLoop('node lease', this.opts.leaseRenewMs ?? 10_000, () => this.lease.renew(), logger));
    if (!this.cidr) {
      const until = Date.now() + POD_CIDR_POLL_FOR_MS;
      this.podCidrLoop = startLoop(
        'node pod CIDR',
        POD_CIDR_POLL_MS,
        async () => {
          if (Date.now() > until) return this.stopPodCidrPoll();
          this.noteNode(await this.nodes.get(this.opts.nodeName));
        },
        logger,
      );
      this.loops.push(this.podCidrLoop);
    }
  }

  /** The node's pod CIDR (spec.podCIDR), once assigned: its pods' addresses come from it. */
  podCidr(): string | undefined {
    return this.cidr;
  }

  /** Looks at the status now (a device's health changed) rather than at the next tick. */
  refresh(): void {
    this.statusLoop?.kick();
  }

  async stop(): Promise<void> {
    await Promise.all(this.loops.map((loop) => loop.stop()));
    this.loops = [];
  }

  private async runtimeHealth(): Promise<RuntimeHealth> {
    const { runtime } = this.opts;
    const status = await runtime.status().catch((error: unknown) => ({ ready: false, reason: 'RuntimeUnavailable', message: String(error) }));
    if (status.ready && !this.runtimeVersion) {
      const v = await runtime.version().catch(() => undefined);
      if (v) this.runtimeVersion = `${v.runtimeName}://${v.runtimeVersion}`;
    }
    return {
      ready: status.ready,
      ...(status.reason ? { reason: status.reason } : {}),
      ...(status.message ? { message: status.message } : {}),
      version: this.runtimeVersion || `${runtime.name}://unknown`,
    };
  }

  private async heartbeat(force: boolean): Promise<void> {
    const [health, pressure] = await Promise.all([this.runtimeHealth(), hostPressure(this.opts.dataDir)]);
    this.noteRuntime(health);
    this.facts ??= await hostFacts(this.opts.dataDir);
    const status = buildNodeStatus({
      nodeName: this.opts.nodeName,
      nodeAddress: this.opts.nodeAddress,
      streamingPort: this.opts.streamingPort,
      facts: this.facts,
      pressure,
      runtime: health,
      extendedResources: this.opts.extendedResources,
      devices: this.opts.devices?.report(),
      previous: this.serverStatus,
    });
    const due = Date.now() - this.writtenAt >= (this.opts.heartbeatMs ?? 10_000);
    if (!force && !due && !statusChanged(status, this.written)) return;
    let node: NodeObject;
    try {
      node = await this.nodes.patch(this.opts.nodeName, 'merge', { status }, { subresource: 'status' });
    } catch (error) {
      // Someone deleted the Node: the kubelet registers again, and so do we.
      if (isNotFound(error) && !force) return this.register();
      throw error;
    }
    this.noteNode(node);
    this.written = status;
    this.writtenAt = Date.now();
    await this.writeAnnotations();
  }

  private noteNode(node: NodeObject): void {
    this.uid = node.metadata.uid;
    this.serverStatus = node.status;
    const cidr = node.spec?.podCIDR;
    if (!cidr || cidr === this.cidr) return;
    this.cidr = cidr;
    this.opts.onPodCidr?.(cidr);
    // Assigned once and for all (Kubernetes forbids changing it): the poll is done.
    this.stopPodCidrPoll();
  }

  private stopPodCidrPoll(): void {
    const poll = this.podCidrLoop;
    this.podCidrLoop = undefined;
    if (!poll) return;
    this.loops = this.loops.filter((loop) => loop !== poll);
    // Not awaited: it may be the poll's own step that stops it.
    void poll.stop();
  }

  private async writeAnnotations(): Promise<void> {
    const devices = this.opts.devices;
    const annotations = devices?.annotationsDue();
    if (!devices || !annotations) return;
    try {
      await this.nodes.patch(this.opts.nodeName, 'merge', { metadata: { annotations } });
    } catch (error) {
      devices.annotationsFailed();
      throw error;
    }
  }

  private noteRuntime(health: RuntimeHealth): void {
    const was = this.runtimeReady;
    this.runtimeReady = health.ready;
    if (was === health.ready) return;
    if (health.ready) {
      this.opts.logger.info('container runtime is back');
      this.opts.onRuntimeReady?.();
    } else {
      this.opts.logger.warn('container runtime is down', { reason: health.reason, message: health.message });
    }
  }
}
