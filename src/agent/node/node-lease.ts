// The node's heartbeat Lease (kube-node-lease/<node>), renewed every 10 s as the kubelet does.
// The node lifecycle controller reads renewTime; the Lease is owned by the Node, so it goes
// when the Node is deleted.
import type { KubeObject } from '../../api/meta.js';
import { isAlreadyExists, isConflict, isNotFound, resources, type ApiClient, type ResourceClient } from '../../client/index.js';
import { microTime } from '../util/time.js';

export const LEASE_NAMESPACE = 'kube-node-lease';
export const LEASE_DURATION_SECONDS = 40;

interface Lease extends KubeObject {
  spec?: { holderIdentity?: string; leaseDurationSeconds?: number; renewTime?: string; acquireTime?: string; leaseTransitions?: number };
}

export class NodeLease {
  private readonly leases: ResourceClient<Lease>;
  private current: Lease | undefined;

  constructor(
    api: ApiClient,
    private readonly nodeName: string,
    private readonly nodeUid: () => string | undefined,
  ) {
    this.leases = api.resource<Lease>(resources.leases, LEASE_NAMESPACE);
  }

  /** One renewal: an update from the lease last seen, or a fresh read and create. */
  async renew(retry = true): Promise<void> {
    const base = this.current ?? (await this.fetch());
    if (!base) {
      await this.create();
      return;
    }
    const next: Lease = {
      ...base,
      spec: { ...base.spec, holderIdentity: this.nodeName, leaseDurationSeconds: LEASE_DURATION_SECONDS, renewTime: microTime() },
    };
    try {
      this.current = await this.leases.update(next);
    } catch (error) {
      // Someone else wrote it, or it was deleted: read again at the next renewal.
      this.current = undefined;
      if (retry && (isConflict(error) || isNotFound(error))) return this.renew(false);
      throw error;
    }
  }

  private async fetch(): Promise<Lease | undefined> {
    try {
      return await this.leases.get(this.nodeName);
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  private async create(): Promise<void> {
    const uid = this.nodeUid();
    const now = microTime();
    const lease: Lease = {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: {
        name: this.nodeName,
        namespace: LEASE_NAMESPACE,
        ...(uid ? { ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: this.nodeName, uid }] } : {}),
      },
      spec: { holderIdentity: this.nodeName, leaseDurationSeconds: LEASE_DURATION_SECONDS, acquireTime: now, renewTime: now },
    };
    try {
      this.current = await this.leases.create(lease);
    } catch (error) {
      if (!isAlreadyExists(error)) throw error;
      this.current = await this.fetch();
    }
  }
}
