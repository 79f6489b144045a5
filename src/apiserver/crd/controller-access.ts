// The controllers' access to custom resources. Kubernetes' garbage collector may read, patch and
// delete every resource (`*/*`), Secrets included; Drover's controllers hold named resources
// only (auth/rbac/bootstrap-policy.ts), and this ClusterRole adds each custom resource while it
// is served: the garbage collector follows custom resources as owners and dependents (watches
// them, patches their ownerReferences and finalizers, deletes them). The bootstrap policy binds it
// to the controllers' identity; every API server keeps its rules from the established CRDs.
// The rules are deterministic (groups and resources sorted), so servers sharing a store agree,
// and each write carries the read resourceVersion: of two racing servers one lands and the
// other looks again and finds it done.
import type { KubeObject } from '../../api/meta.js';
import { findResource } from '../../api/registry.js';
import { CUSTOM_RESOURCE_CONTROLLERS_ROLE } from '../../auth/rbac/bootstrap-policy.js';
import { jsonEqual } from '../../util/json-equal.js';
import type { ObjectRegistry, WriteOptions } from '../registry/object-registry.js';
import { RetryingPasses } from '../retrying-passes.js';
import type { CustomResources } from './custom-resources.js';

const RBAC = 'rbac.authorization.k8s.io';
const VERBS = ['get', 'list', 'watch', 'patch', 'delete'];
const WRITE: WriteOptions = { dryRun: false, fieldManager: 'apiextensions-apiserver', fieldValidation: 'Strict' };

/** One rule per group of the served custom resources, naming each of its resources. */
export function customResourceRules(served: readonly { group: string; plural: string }[]): Record<string, unknown>[] {
  const byGroup = new Map<string, Set<string>>();
  for (const { group, plural } of served) byGroup.set(group, (byGroup.get(group) ?? new Set()).add(plural));
  return [...byGroup.keys()].sort().map((group) => ({ verbs: VERBS, apiGroups: [group], resources: [...byGroup.get(group)!].sort() }));
}

export class ControllerCustomResourceAccess {
  private readonly roles = findResource(RBAC, 'v1', 'clusterroles')!;
  private readonly passes = new RetryingPasses(() => this.sync(), 'custom resource access');

  constructor(
    private readonly registry: ObjectRegistry,
    private readonly custom: CustomResources,
  ) {}

  /** After the custom resources' first list: a CRD deleted while no server ran is dropped too. */
  start(): void {
    this.custom.onChange(() => this.passes.add(CUSTOM_RESOURCE_CONTROLLERS_ROLE));
    this.passes.add(CUSTOM_RESOURCE_CONTROLLERS_ROLE);
  }

  stop(): void {
    this.passes.stop();
  }

  private async sync(): Promise<boolean> {
    const rules = customResourceRules(this.custom.all());
    const existing = await this.registry.find(this.roles, undefined, CUSTOM_RESOURCE_CONTROLLERS_ROLE);
    if (existing ? jsonEqual(existing['rules'] ?? [], rules) : rules.length === 0) return true;
    const role: KubeObject = {
      apiVersion: `${RBAC}/v1`,
      kind: 'ClusterRole',
      metadata: existing?.metadata ?? { name: CUSTOM_RESOURCE_CONTROLLERS_ROLE },
      rules,
    };
    if (existing) await this.registry.update(this.roles, undefined, CUSTOM_RESOURCE_CONTROLLERS_ROLE, role, WRITE);
    else await this.registry.create(this.roles, undefined, role, WRITE);
    return true;
  }
}
