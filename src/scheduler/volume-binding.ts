// kube-scheduler's VolumeBinding plugin, and the claim, volume and class informers it reads.
// A pod fits only where its claims' volumes can be reached: a claim bound to a volume with node
// affinity pins the pod to those nodes; a claim of a WaitForFirstConsumer class that is not bound
// yet goes wherever the pod goes (its class provisions it there; a class without provisioner needs
// a free volume that node can reach), and before the pod is bound the claim is annotated with the
// chosen node (volume.kubernetes.io/selected-node) for the binder and the provisioner. A missing
// claim, one being deleted, or an unbound claim of an Immediate class keeps the pod Pending.
import type { KubeObject } from '../api/meta.js';
import type { NodeFields } from '../api/scheduling/node-affinity.js';
import { claimClass, findMatchingVolume, podClaimNames, volumeFitsNode } from '../api/volumes/claims.js';
import { ANN_SELECTED_NODE } from '../api/volumes/names.js';
import { resources, type ApiClient, type Informer, type SharedInformerFactory } from '../client/index.js';
import { pass, reject, type Plugin } from './plugin.js';
import { SKIP, unresolvable, type Status } from './status.js';
import { record, text } from './object-access.js';

export const REASON_VOLUME_NODE_CONFLICT = 'node(s) had volume node affinity conflict';
export const REASON_NO_VOLUME_TO_BIND = "node(s) didn't find available persistent volumes to bind";
export const REASON_MISSING_VOLUME = 'node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)';
const NO_PROVISIONER = 'kubernetes.io/no-provisioner';

/** What the plugin reads: the scheduler's informers, or maps in a test. */
export interface VolumeLookup {
  claim(namespace: string, name: string): Readonly<KubeObject> | undefined;
  volume(name: string): Readonly<KubeObject> | undefined;
  storageClass(name: string): Readonly<KubeObject> | undefined;
  volumes(): readonly Readonly<KubeObject>[];
}

interface VolumeState {
  /** Volumes the pod's bound claims name (undefined: a claim names a volume that does not exist). */
  readonly bound: ReadonlyArray<Readonly<KubeObject> | undefined>;
  /** Unbound claims of late-binding classes; `static`: no provisioner, a free volume must be found. */
  readonly delayed: ReadonlyArray<{ readonly claim: Readonly<KubeObject>; readonly static: boolean }>;
}

function lateBinding(lookup: VolumeLookup, claim: Readonly<KubeObject>): Readonly<KubeObject> | undefined {
  const storageClass = lookup.storageClass(claimClass(claim));
  return storageClass?.['volumeBindingMode'] === 'WaitForFirstConsumer' ? storageClass : undefined;
}

// As kube-scheduler's VolumeBinding filter: nothing preemption could remove changes these.
const MISSING_VOLUME = unresolvable(REASON_MISSING_VOLUME);
const VOLUME_NODE_CONFLICT = unresolvable(REASON_VOLUME_NODE_CONFLICT);
const NO_VOLUME_TO_BIND = unresolvable(REASON_NO_VOLUME_TO_BIND);

function fits(lookup: VolumeLookup, state: VolumeState, node: NodeFields): Status | undefined {
  for (const volume of state.bound) {
    if (!volume) return MISSING_VOLUME;
    if (!volumeFitsNode(volume, node)) return VOLUME_NODE_CONFLICT;
  }
  for (const { claim, static: needsVolume } of state.delayed) {
    // Already being provisioned for another node (the claim's first pod went there).
    const selected = claim.metadata.annotations?.[ANN_SELECTED_NODE];
    if (selected !== undefined && selected !== node.name) return VOLUME_NODE_CONFLICT;
    if (needsVolume && !findMatchingVolume(claim, lookup.volumes(), { node, delayBinding: true })) return NO_VOLUME_TO_BIND;
  }
  return undefined;
}

/**
 * The plugin. `selectNode` annotates a late-binding claim with the node its pod goes to; its bind
 * stage does that for each such claim and then hands the pod on to the binder (SKIP).
 */
export function volumeBinding(lookup: VolumeLookup, selectNode: (claim: Readonly<KubeObject>, nodeName: string) => Promise<void>): Plugin<VolumeState> {
  return {
    name: 'VolumeBinding',
    preFilter(pod) {
      const names = podClaimNames(pod.pod);
      if (names.length === 0) return pass({ bound: [], delayed: [] }, { skipFilter: true, skipScore: true });
      const bound: Array<Readonly<KubeObject> | undefined> = [];
      const delayed: Array<{ claim: Readonly<KubeObject>; static: boolean }> = [];
      for (const name of names) {
        const claim = lookup.claim(pod.namespace, name);
        if (!claim) return reject(`persistentvolumeclaim "${name}" not found`);
        if (claim.metadata.deletionTimestamp) return reject(`persistentvolumeclaim "${name}" is being deleted`);
        const volumeName = text(record(claim['spec'])['volumeName']);
        if (volumeName) {
          bound.push(lookup.volume(volumeName));
          continue;
        }
        const storageClass = lateBinding(lookup, claim);
        if (!storageClass) return reject('pod has unbound immediate PersistentVolumeClaims');
        const provisioner = text(storageClass['provisioner']) ?? '';
        delayed.push({ claim, static: provisioner === '' || provisioner === NO_PROVISIONER });
      }
      return pass({ bound, delayed }, { skipScore: true });
    },
    filter: (state, _pod, node) => fits(lookup, state, node),
    async bind(pod, nodeName) {
      for (const name of podClaimNames(pod)) {
        const claim = lookup.claim(pod.metadata.namespace ?? '', name);
        if (!claim || text(record(claim['spec'])['volumeName']) || !lateBinding(lookup, claim)) continue;
        if (claim.metadata.annotations?.[ANN_SELECTED_NODE] !== nodeName) await selectNode(claim, nodeName);
      }
      return SKIP;
    },
  };
}

/** The plugin over the scheduler's informers, annotating claims through the API. */
export class VolumeBinding {
  readonly plugin: Plugin<VolumeState>;
  private readonly claims: Informer<KubeObject>;
  private readonly volumes: Informer<KubeObject>;
  private readonly classes: Informer<KubeObject>;

  constructor(api: ApiClient, informers: SharedInformerFactory) {
    this.claims = informers.informerFor(resources.persistentvolumeclaims);
    this.volumes = informers.informerFor(resources.persistentvolumes);
    this.classes = informers.informerFor(resources.storageclasses);
    const lookup: VolumeLookup = {
      claim: (namespace, name) => this.claims.get(`${namespace}/${name}`),
      volume: (name) => this.volumes.get(name),
      storageClass: (name) => this.classes.get(name),
      volumes: () => this.volumes.list(),
    };
    this.plugin = volumeBinding(lookup, async (claim, nodeName) => {
      await api.resource(resources.persistentvolumeclaims, claim.metadata.namespace).patch(claim.metadata.name ?? '', 'merge', {
        metadata: { annotations: { [ANN_SELECTED_NODE]: nodeName } },
      });
    });
  }

  /** `changed` is told whenever a claim, volume or class changes: pods waiting on one may fit now. */
  start(changed: () => void): Array<() => void> {
    const handlers = { onAdd: changed, onUpdate: (old: Readonly<KubeObject>, next: Readonly<KubeObject>) => old !== next && changed(), onDelete: changed };
    return [this.claims.addEventHandler(handlers), this.volumes.addEventHandler(handlers), this.classes.addEventHandler(handlers)];
  }

  async waitForSync(): Promise<void> {
    await Promise.all([this.claims.waitForSync(), this.volumes.waitForSync(), this.classes.waitForSync()]);
  }
}
