// The four RBAC kinds in memory, kept by list + watch on the store, so that authorizing a
// request reads no storage. Bindings are indexed by subject (user name or group) so that a
// check looks only at the bindings that name this user or one of its groups, however many
// bindings the cluster has.
import type { KubeObject } from '../../api/meta.js';
import { findResource } from '../../api/registry.js';
import { prefixFor } from '../../apiserver/registry/keys.js';
import type { Store, StoreEvent } from '../../storage/store.js';
import { StoreMirror } from '../../storage/store-mirror.js';
import type { UserInfo } from '../types.js';
import { normalizeRules, type PolicyRule } from './rules.js';
import { subjectKey, userKeys, type Binding, type Subject } from './subjects.js';

const RBAC_GROUP = 'rbac.authorization.k8s.io';

type KindName = 'roles' | 'clusterroles' | 'rolebindings' | 'clusterrolebindings';
const KINDS: readonly KindName[] = ['roles', 'clusterroles', 'rolebindings', 'clusterrolebindings'];

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function toBinding(object: KubeObject): Binding {
  const roleRef = (object['roleRef'] ?? {}) as Record<string, unknown>;
  const subjects: Subject[] = Array.isArray(object['subjects'])
    ? object['subjects'].map((s: Record<string, unknown>) => ({ kind: text(s?.['kind']), name: text(s?.['name']), namespace: text(s?.['namespace']) }))
    : [];
  return {
    name: object.metadata.name ?? '',
    namespace: object.metadata.namespace ?? '',
    roleRef: { kind: text(roleRef['kind']), name: text(roleRef['name']) },
    subjects,
  };
}

/** Bindings of one scope (the cluster, or one namespace) by name, and by subject key. */
class BindingIndex {
  readonly byName = new Map<string, Binding>();
  private readonly bySubject = new Map<string, Set<string>>();

  put(binding: Binding): void {
    this.remove(binding.name);
    this.byName.set(binding.name, binding);
    for (const key of this.keysOf(binding)) {
      let names = this.bySubject.get(key);
      if (!names) this.bySubject.set(key, (names = new Set()));
      names.add(binding.name);
    }
  }

  remove(name: string): void {
    const old = this.byName.get(name);
    if (!old) return;
    this.byName.delete(name);
    for (const key of this.keysOf(old)) {
      const names = this.bySubject.get(key);
      names?.delete(name);
      if (names?.size === 0) this.bySubject.delete(key);
    }
  }

  /** The bindings naming one of `keys`, each once, in name order (so reasons are deterministic). */
  find(keys: readonly string[]): Binding[] {
    const names = new Set<string>();
    for (const key of keys) for (const name of this.bySubject.get(key) ?? []) names.add(name);
    return [...names].sort().map((name) => this.byName.get(name)!);
  }

  get size(): number {
    return this.byName.size;
  }

  private keysOf(binding: Binding): Set<string> {
    const keys = new Set<string>();
    for (const subject of binding.subjects) {
      const key = subjectKey(subject, binding.namespace);
      if (key !== undefined) keys.add(key);
    }
    return keys;
  }
}

/** One consistent picture of the four kinds. */
class RbacState {
  /** Replaced at every change: what cached decisions are checked against (decision-cache.ts). */
  version: object = {};
  readonly clusterRoles = new Map<string, PolicyRule[]>();
  /** namespace/name → rules */
  readonly roles = new Map<string, PolicyRule[]>();
  readonly clusterBindings = new BindingIndex();
  readonly roleBindings = new Map<string, BindingIndex>();

  apply(kind: KindName, type: StoreEvent['type'], object: KubeObject): void {
    const name = object.metadata.name ?? '';
    const namespace = object.metadata.namespace ?? '';
    const deleted = type === 'DELETED';
    this.version = {};
    switch (kind) {
      case 'clusterroles':
        if (deleted) this.clusterRoles.delete(name);
        else this.clusterRoles.set(name, normalizeRules(object['rules']));
        break;
      case 'roles':
        if (deleted) this.roles.delete(`${namespace}/${name}`);
        else this.roles.set(`${namespace}/${name}`, normalizeRules(object['rules']));
        break;
      case 'clusterrolebindings':
        if (deleted) this.clusterBindings.remove(name);
        else this.clusterBindings.put(toBinding(object));
        break;
      case 'rolebindings': {
        let index = this.roleBindings.get(namespace);
        if (deleted) {
          index?.remove(name);
          if (index?.size === 0) this.roleBindings.delete(namespace);
          break;
        }
        if (!index) this.roleBindings.set(namespace, (index = new BindingIndex()));
        index.put(toBinding(object));
        break;
      }
    }
  }
}

export class RbacCache {
  private readonly mirror: StoreMirror<RbacState>;

  constructor(store: Store) {
    this.mirror = new StoreMirror(store, {
      name: 'rbac cache',
      prefixes: KINDS.map((kind) => prefixFor(findResource(RBAC_GROUP, 'v1', kind)!)),
      fresh: () => new RbacState(),
      apply: (state, index, event) => state.apply(KINDS[index]!, event.type, event.object),
    });
  }

  /** Lists the four kinds and watches them from the listed revision; resolves once filled. */
  start(): Promise<void> {
    return this.mirror.start();
  }

  stop(): void {
    this.mirror.stop();
  }

  private get state(): RbacState {
    return this.mirror.state;
  }

  /** Changes with every RBAC event and every resync (a fresh picture): equal versions, same answers. */
  get version(): object {
    return this.state.version;
  }

  clusterRoleRules(name: string): PolicyRule[] | undefined {
    return this.state.clusterRoles.get(name);
  }

  roleRules(namespace: string, name: string): PolicyRule[] | undefined {
    return this.state.roles.get(`${namespace}/${name}`);
  }

  clusterRoleBindingsFor(user: UserInfo): Binding[] {
    return this.state.clusterBindings.find(userKeys(user));
  }

  roleBindingsFor(user: UserInfo, namespace: string): Binding[] {
    return this.state.roleBindings.get(namespace)?.find(userKeys(user)) ?? [];
  }
}
