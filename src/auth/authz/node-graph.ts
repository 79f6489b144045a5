// What each node may reach, from the pods bound to it (Kubernetes' node authorizer graph): the
// Secrets, ConfigMaps, claims and service accounts its pods use, the volumes bound to those
// claims (by the volume's claimRef), and the training jobs they belong to (whose other replicas
// an agent resolves by name). Kept from the store by a mirror.
import type { KubeObject } from '../../api/meta.js';
import { TRAINING_JOB_NAME_LABEL } from '../../api/training-frameworks.js';
import type { MirrorEvent } from '../../storage/store-mirror.js';
import { podClaimNames } from '../../api/volumes/claims.js';

export type Reference = 'secrets' | 'configmaps' | 'persistentvolumeclaims' | 'serviceaccounts' | 'jobs';

interface PodFacts {
  node: string;
  /** `kind ns/name` strings this pod uses. */
  uses: string[];
}

/** Counts per node of every `kind ns/name` its pods use. */
export class NodeGraph {
  private readonly pods = new Map<string, PodFacts>();
  private readonly reach = new Map<string, Map<string, number>>();
  /**
   * The claim each volume is bound to (`namespace/name`), from the volume's spec.claimRef, which
   * only the binder writes (a claim's spec.volumeName is its creator's to set, so it proves nothing).
   */
  private readonly volumeClaims = new Map<string, string>();
  /** Local-path volumes by the node their directory is on (their drover.io/local-path-node label). */
  private readonly volumeNodes = new Map<string, string>();

  /**
   * Takes in one pod event. Most pod writes are of pods that are not bound and were not before:
   * those are passed over without parsing their JSON (the API server's every pod write reaches here).
   */
  apply(event: MirrorEvent): void {
    const { type, objectJson } = event;
    if (objectJson !== undefined && !objectJson.includes('"nodeName"') && !this.pods.has(podKeyOf(event.key))) return;
    if (type === 'DELETED' && event.key !== '' && !this.pods.has(podKeyOf(event.key))) return;
    const pod = event.object;
    const key = `${pod.metadata.namespace ?? ''}/${pod.metadata.name ?? ''}`;
    const old = this.pods.get(key);
    if (old) this.count(old, -1);
    this.pods.delete(key);
    if (type === 'DELETED') return;
    const spec = (pod['spec'] ?? {}) as Record<string, any>;
    const node = typeof spec['nodeName'] === 'string' ? spec['nodeName'] : '';
    if (!node) return;
    const facts: PodFacts = { node, uses: [`pods ${key}`, ...referencesOf(pod)] };
    this.pods.set(key, facts);
    this.count(facts, 1);
  }

  /** Takes in one PersistentVolume event: the claim it is bound to, and the node of a local-path volume. */
  applyVolume(event: MirrorEvent, nodeLabel: string): void {
    const volume = event.object;
    const name = volume.metadata.name ?? '';
    const node = volume.metadata.labels?.[nodeLabel];
    if (event.type === 'DELETED' || node === undefined) this.volumeNodes.delete(name);
    else this.volumeNodes.set(name, node);
    const claimRef = (volume['spec'] as { claimRef?: { namespace?: unknown; name?: unknown } } | undefined)?.claimRef;
    const bound = typeof claimRef?.namespace === 'string' && typeof claimRef.name === 'string' && claimRef.name !== '';
    if (event.type === 'DELETED' || !bound) this.volumeClaims.delete(name);
    else this.volumeClaims.set(name, `${claimRef.namespace as string}/${claimRef.name as string}`);
  }

  /** Whether a pod bound to `node` uses a claim bound to this volume (Kubernetes' pod → claim → volume edge). */
  reachesVolume(node: string, volume: string): boolean {
    const claim = this.volumeClaims.get(volume);
    if (claim === undefined) return false;
    const slash = claim.indexOf('/');
    return this.reaches(node, 'persistentvolumeclaims', claim.slice(0, slash), claim.slice(slash + 1));
  }

  /** Whether the volume is a local-path volume whose directory is on `node`. */
  holdsVolume(node: string, volume: string): boolean {
    return this.volumeNodes.get(volume) === node;
  }

  /** Whether a pod bound to `node` uses `kind namespace/name` (or is that pod). */
  reaches(node: string, kind: Reference | 'pods', namespace: string, name: string): boolean {
    return (this.reach.get(node)?.get(`${kind} ${namespace}/${name}`) ?? 0) > 0;
  }

  /** The node a pod is bound to, if the graph knows the pod. */
  nodeOf(namespace: string, name: string): string | undefined {
    return this.pods.get(`${namespace}/${name}`)?.node;
  }

  /** The training job a known pod belongs to. */
  jobOf(namespace: string, name: string): string | undefined {
    const job = this.pods.get(`${namespace}/${name}`)?.uses.find((use) => use.startsWith('jobs '));
    return job ? job.slice(job.indexOf('/') + 1) : undefined;
  }

  private count(facts: PodFacts, delta: number): void {
    let counts = this.reach.get(facts.node);
    if (!counts) this.reach.set(facts.node, (counts = new Map()));
    for (const use of facts.uses) {
      const next = (counts.get(use) ?? 0) + delta;
      if (next > 0) counts.set(use, next);
      else counts.delete(use);
    }
    if (counts.size === 0) this.reach.delete(facts.node);
  }
}

/** `namespace/name` of a pod's store key (`.../pods/<namespace>/<name>`). */
function podKeyOf(storeKey: string): string {
  const parts = storeKey.split('/');
  return `${parts[parts.length - 2] ?? ''}/${parts[parts.length - 1] ?? ''}`;
}

/** Everything a pod's spec names: volumes, env and envFrom sources, pull secrets, its account, its job. */
function referencesOf(pod: KubeObject): string[] {
  const namespace = pod.metadata.namespace ?? '';
  const spec = (pod['spec'] ?? {}) as Record<string, any>;
  const refs = new Set<string>();
  const add = (kind: Reference, name: unknown) => typeof name === 'string' && name && refs.add(`${kind} ${namespace}/${name}`);
  add('serviceaccounts', spec['serviceAccountName'] || 'default');
  for (const secret of spec['imagePullSecrets'] ?? []) add('secrets', secret?.name);
  for (const volume of spec['volumes'] ?? []) {
    add('secrets', volume?.secret?.secretName);
    add('configmaps', volume?.configMap?.name);
    for (const source of volume?.projected?.sources ?? []) {
      add('secrets', source?.secret?.name);
      add('configmaps', source?.configMap?.name);
    }
  }
  for (const list of ['containers', 'initContainers', 'ephemeralContainers']) {
    for (const container of spec[list] ?? []) {
      for (const env of container?.env ?? []) {
        add('secrets', env?.valueFrom?.secretKeyRef?.name);
        add('configmaps', env?.valueFrom?.configMapKeyRef?.name);
      }
      for (const from of container?.envFrom ?? []) {
        add('secrets', from?.secretRef?.name);
        add('configmaps', from?.configMapRef?.name);
      }
    }
  }
  for (const claim of podClaimNames(pod)) add('persistentvolumeclaims', claim);
  add('jobs', pod.metadata.labels?.[TRAINING_JOB_NAME_LABEL]);
  return [...refs];
}
