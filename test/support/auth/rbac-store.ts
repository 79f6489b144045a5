// For the registry, RBAC and admission tests: a real SQLite store in a temporary directory, a
// registry over it with a few namespaces, and shorthands for RBAC objects and request attributes.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KubeObject } from '../../../src/api/meta.js';
import { findByKind, findResource } from '../../../src/api/registry.js';
import { ObjectRegistry, type WriteOptions } from '../../../src/apiserver/registry/object-registry.js';
import { openSqliteStore, type SqliteStore } from '../../../src/storage/sqlite/sqlite-store.js';
import type { RequestAttributes, UserInfo } from '../../../src/auth/types.js';
import { ClusterRoleAggregator } from '../../../src/auth/rbac/aggregation.js';
import { createRbacAuthorizer, type RbacAuthorizer } from '../../../src/auth/rbac/authorizer.js';
import { ensureDefaultRbac } from '../../../src/auth/rbac/defaults.js';
import { nodeSubject } from '../../../src/auth/components.js';

export const RBAC = 'rbac.authorization.k8s.io';
export const WRITE: WriteOptions = { dryRun: false, fieldManager: 'test', fieldValidation: 'Strict' };

export interface TestStore {
  store: SqliteStore;
  registry: ObjectRegistry;
  /** Creates an object of any kind (by its kind), in its metadata.namespace. */
  create(object: KubeObject): Promise<KubeObject>;
  close(): Promise<void>;
}

export async function openTestStore(namespaces: string[] = ['default', 'dev', 'prod']): Promise<TestStore> {
  const dir = await mkdtemp(join(tmpdir(), 'drover-rbac-'));
  const store = await openSqliteStore({ path: join(dir, 'state.db') });
  const registry = new ObjectRegistry(store);
  const nsDef = findResource('', 'v1', 'namespaces')!;
  for (const name of namespaces) await registry.create(nsDef, undefined, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } }, WRITE);
  return {
    store,
    registry,
    async create(object) {
      const [group, version] = object.apiVersion.includes('/') ? object.apiVersion.split('/') : ['', object.apiVersion];
      const def = findByKind(group!, version!, object.kind)!;
      return (await registry.create(def, object.metadata.namespace, object, WRITE)).object;
    },
    async close() {
      registry.close();
      await store.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

type Rule = Record<string, string[]>;

export function role(namespace: string, name: string, rules: Rule[]): KubeObject {
  return { apiVersion: `${RBAC}/v1`, kind: 'Role', metadata: { name, namespace }, rules };
}

export function clusterRole(name: string, rules: Rule[], labels?: Record<string, string>): KubeObject {
  return { apiVersion: `${RBAC}/v1`, kind: 'ClusterRole', metadata: labels ? { name, labels } : { name }, rules };
}

export type SubjectSpec = { kind: 'User' | 'Group'; name: string } | { kind: 'ServiceAccount'; name: string; namespace?: string };

function subjects(list: SubjectSpec[]): Record<string, string>[] {
  return list.map((s) => (s.kind === 'ServiceAccount' ? { ...s } : { apiGroup: RBAC, ...s }));
}

export function roleBinding(namespace: string, name: string, roleRef: { kind: 'Role' | 'ClusterRole'; name: string }, who: SubjectSpec[]): KubeObject {
  return { apiVersion: `${RBAC}/v1`, kind: 'RoleBinding', metadata: { name, namespace }, roleRef: { apiGroup: RBAC, ...roleRef }, subjects: subjects(who) };
}

export function clusterRoleBinding(name: string, roleName: string, who: SubjectSpec[]): KubeObject {
  return {
    apiVersion: `${RBAC}/v1`,
    kind: 'ClusterRoleBinding',
    metadata: { name },
    roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: roleName },
    subjects: subjects(who),
  };
}

export function user(username: string, ...groups: string[]): UserInfo {
  return { username, groups: [...groups, 'system:authenticated'] };
}

/** A resource request: `resource` may be 'pods/log'; `group` is '' for the core group. */
export function request(who: UserInfo, verb: string, resource: string, options: { group?: string; namespace?: string; name?: string } = {}): RequestAttributes {
  const [plural, subresource] = resource.split('/');
  return {
    user: who,
    verb,
    resourceRequest: true,
    apiGroup: options.group ?? '',
    apiVersion: 'v1',
    resource: plural!,
    subresource: subresource ?? '',
    namespace: options.namespace ?? '',
    name: options.name ?? '',
    path: '',
  };
}

/** A node agent's request, as system:node:<node> in system:nodes; `extra` sets any other attribute. */
export function nodeRequest(node: string, verb: string, resource: string, extra: Partial<RequestAttributes> = {}): RequestAttributes {
  const subject = nodeSubject(node);
  return { ...request(user(subject.commonName, ...subject.organizations!), verb, resource), ...extra };
}

export function nonResource(who: UserInfo, verb: string, path: string): RequestAttributes {
  return { user: who, verb, resourceRequest: false, apiGroup: '', apiVersion: '', resource: '', subresource: '', namespace: '', name: '', path };
}

/** The default roles written, aggregated and cached, as the API server runs them. */
export async function startDefaultRbac(t: TestStore): Promise<{ rbac: RbacAuthorizer; stop(): void }> {
  await ensureDefaultRbac(t.registry);
  const aggregator = new ClusterRoleAggregator(t.registry);
  await aggregator.start();
  const rbac = createRbacAuthorizer(t.store);
  await rbac.start();
  return {
    rbac,
    stop() {
      rbac.stop();
      aggregator.stop();
    },
  };
}
