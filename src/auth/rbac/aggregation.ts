// Kubernetes' clusterrole-aggregation controller, run inside the API server: a ClusterRole with
// an aggregationRule gets as rules the union of the rules of every other ClusterRole that one
// of its selectors matches, and keeps it as those roles come, change and go. This is how
// `admin`, `edit` and `view` grow when a labelled ClusterRole (say, for PyTorchJobs) is added.
//
// The union is deterministic: selectors in order, matching roles by name, their rules in order,
// each distinct rule once. So every API server on a shared store computes the same rules, and a
// write that lost a race to another server's identical write is simply made again or found done.
import type { KubeObject } from '../../api/meta.js';
import { findResource } from '../../api/registry.js';
import type { ResourceDefinition } from '../../api/resource.js';
import { selectorMatches, stringMap } from '../../api/validation/util.js';
import { prefixFor } from '../../apiserver/registry/keys.js';
import type { ObjectRegistry } from '../../apiserver/registry/object-registry.js';
import type { Watch } from '../../storage/store.js';
import { normalizeRules, ruleToJson, sameRule, type PolicyRule } from './rules.js';

const FIELD_MANAGER = 'clusterrole-aggregation-controller';
const RETRY_MS = 1000;

/** The rules an aggregated ClusterRole should have, given every ClusterRole by name. */
export function aggregatedRules(role: KubeObject, all: ReadonlyMap<string, KubeObject>): PolicyRule[] {
  const aggregation = role['aggregationRule'] as { clusterRoleSelectors?: unknown } | undefined;
  const selectors = Array.isArray(aggregation?.clusterRoleSelectors) ? aggregation.clusterRoleSelectors : [];
  const names = [...all.keys()].sort();
  const rules: PolicyRule[] = [];
  for (const selector of selectors) {
    for (const name of names) {
      if (name === role.metadata.name) continue;
      const other = all.get(name)!;
      if (!selectorMatches(selector, stringMap(other.metadata.labels))) continue;
      for (const rule of normalizeRules(other['rules'])) if (!rules.some((r) => sameRule(r, rule))) rules.push(rule);
    }
  }
  return rules;
}

function isAggregated(role: KubeObject): boolean {
  return role['aggregationRule'] !== undefined && role['aggregationRule'] !== null;
}

export class ClusterRoleAggregator {
  private readonly def: ResourceDefinition;
  private readonly roles = new Map<string, KubeObject>();
  private watch: Watch | undefined;
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private again = false;
  private stopped = false;

  constructor(private readonly registry: ObjectRegistry) {
    this.def = findResource('rbac.authorization.k8s.io', 'v1', 'clusterroles')!;
  }

  /** Lists ClusterRoles, aggregates once, and watches for changes. */
  async start(): Promise<void> {
    const prefix = prefixFor(this.def);
    const { items, revision } = await this.registry.store.list({ prefix });
    for (const role of items) this.roles.set(role.metadata.name!, role);
    this.watch = this.registry.store.watch(
      { prefix, fromRevision: revision },
      (event) => {
        if (event.type === 'DELETED') this.roles.delete(event.object.metadata.name!);
        else this.roles.set(event.object.metadata.name!, event.object);
        // Any ClusterRole's change may change any aggregate (its labels or its rules): look at all.
        this.schedule(0);
      },
      () => this.schedule(RETRY_MS),
    );
    await this.syncAll();
  }

  stop(): void {
    this.stopped = true;
    this.watch?.stop();
    if (this.timer) clearTimeout(this.timer);
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.syncAll(), delayMs);
    this.timer.unref();
  }

  private async syncAll(): Promise<void> {
    this.running = true;
    this.again = false;
    let failed = false;
    for (const role of [...this.roles.values()].filter(isAggregated)) {
      if (this.stopped) break;
      try {
        await this.sync(role);
      } catch (error) {
        failed = true;
        console.error(`clusterrole aggregation: ${role.metadata.name}: ${(error as Error).message}`);
      }
    }
    this.running = false;
    if (this.again) this.schedule(0);
    else if (failed) this.schedule(RETRY_MS);
  }

  private async sync(role: KubeObject): Promise<void> {
    const rules = aggregatedRules(role, this.roles);
    const current = normalizeRules(role['rules']);
    if (rules.length === current.length && rules.every((rule, i) => sameRule(rule, current[i]!))) return;
    // A merge patch replaces the list whole; the watch brings the result back into this.roles.
    await this.registry.patch(
      this.def,
      undefined,
      role.metadata.name!,
      'merge',
      { rules: rules.map(ruleToJson) },
      {
        dryRun: false,
        fieldManager: FIELD_MANAGER,
        fieldValidation: 'Strict',
        force: false,
      },
    );
  }
}
