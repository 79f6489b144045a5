// The pods bound to hollow nodes. The agent watches its own pods (fieldSelector
// spec.nodeName=<node>); 5,000 such watches from one process would be 5,000 streams for the API
// server to feed, so the simulation holds ONE cluster-wide informer over bound pods
// (spec.nodeName!=) and dispatches each pod to its node by name. Handlers only queue keys; a
// worker reports the pod Running (through the agent's own status writer) or, once it has a
// deletionTimestamp, finalises it with a zero-grace delete, as a kubelet does when its
// containers have stopped — here there are none to stop.
import {
  ExponentialRateLimiter,
  Informer,
  WorkQueue,
  isConflict,
  isNotFound,
  objectKey,
  resources,
  runController,
  type ApiClient,
  type Logger,
  type RunningController,
} from '../client/index.js';
import { PodRecord } from '../agent/pods/record.js';
import { isTerminalPhase } from '../agent/pods/types.js';
import { writePodStatus } from '../agent/pods/status/writer.js';
import { HOLLOW_NODE_ADDRESS } from './hollow-node.js';
import { hollowPodStatus, reportedRunning } from './hollow-pod-status.js';
import type { HollowNode } from './node-fleet.js';
import type { Pod } from '../api/core/index.js';

export interface PodReporterOptions {
  api: ApiClient;
  /** The hollow nodes by name: pods bound anywhere else are left alone. */
  nodes: ReadonlyMap<string, HollowNode>;
  logger: Logger;
  /** Pods written at once (default 64). */
  workers?: number;
}

export interface PodStats {
  /** Pods bound to hollow nodes, as the informer sees them now. */
  bound: number;
  /** Status writes that reported a pod Running. */
  reported: number;
  /** Pods deleted with grace 0 after their deletionTimestamp was set. */
  finalised: number;
}

function nodeNameOf(pod: Readonly<Pod>): string {
  return pod.spec.nodeName ?? '';
}

export class PodReporter {
  private readonly informer: Informer<Pod>;
  private readonly queue = new WorkQueue<string>({ rateLimiter: new ExponentialRateLimiter<string>(200, 30_000) });
  private readonly counts = { reported: 0, finalised: 0 };
  private controller: RunningController | undefined;

  constructor(private readonly opts: PodReporterOptions) {
    this.informer = new Informer<Pod>(opts.api, resources.pods, { fieldSelector: 'spec.nodeName!=', logger: opts.logger });
    this.informer.addEventHandler({
      onAdd: (pod) => this.observed(pod),
      onUpdate: (_old, pod) => this.observed(pod),
      onDelete: (pod) => this.opts.nodes.get(nodeNameOf(pod))?.addresses.release(pod.metadata.uid ?? ''),
    });
  }

  async start(): Promise<void> {
    this.informer.start();
    await this.informer.waitForSync();
    this.controller = runController({
      name: 'hollow-pods',
      queue: this.queue,
      workers: this.opts.workers ?? 64,
      logger: this.opts.logger,
      reconcile: (key) => this.reconcile(key),
    });
  }

  async stop(): Promise<void> {
    await this.informer.stop();
    await this.controller?.stop();
  }

  stats(): PodStats {
    let bound = 0;
    for (const pod of this.informer.list()) if (this.opts.nodes.has(nodeNameOf(pod))) bound++;
    return { bound, ...this.counts };
  }

  private observed(pod: Readonly<Pod>): void {
    if (!this.opts.nodes.has(nodeNameOf(pod))) return;
    // Our own status write coming back, or a finished pod: nothing to do.
    if (!pod.metadata.deletionTimestamp && (reportedRunning(pod) || isTerminalPhase(pod.status?.phase))) return;
    this.queue.add(objectKey(pod));
  }

  private async reconcile(key: string): Promise<void> {
    const pod = this.informer.get(key);
    const node = pod && this.opts.nodes.get(nodeNameOf(pod));
    if (!pod || !node) return;
    if (pod.metadata.deletionTimestamp) return this.finalise(pod, node);
    if (reportedRunning(pod) || isTerminalPhase(pod.status?.phase)) return;
    const uid = pod.metadata.uid ?? '';
    // A pod on the host network has the node's address; the others one of the node's block.
    const podIP = pod.spec.hostNetwork ? HOLLOW_NODE_ADDRESS : (node.addresses.addressOf(uid, pod.status?.podIP) ?? HOLLOW_NODE_ADDRESS);
    if (await writePodStatus(this.opts.api, new PodRecord(pod as Pod), hollowPodStatus(pod as Pod, podIP))) this.counts.reported++;
  }

  private async finalise(pod: Readonly<Pod>, node: HollowNode): Promise<void> {
    const uid = pod.metadata.uid ?? '';
    try {
      await this.opts.api.resource(resources.pods, pod.metadata.namespace).delete(pod.metadata.name ?? '', { gracePeriodSeconds: 0, preconditions: { uid } });
      this.counts.finalised++;
    } catch (error) {
      // Gone already, or the name now belongs to another pod: nothing of ours is left to finalise.
      if (!isNotFound(error) && !isConflict(error)) throw error;
    }
    node.addresses.release(uid);
  }
}
