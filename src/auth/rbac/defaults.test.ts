// The default roles as users meet them: reconciled at start, aggregated, and authorizing.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { findResource, resourceDefinitions, subresourceDefinitions } from '../../api/registry.js';
import { keyFor } from '../../apiserver/registry/keys.js';
import { waitFor } from '../../../test/support/wait-for.js';
import type { RbacAuthorizer } from './authorizer.js';
import { AUTOUPDATE_ANNOTATION, defaultClusterRoles } from './bootstrap-policy.js';
import { ensureDefaultRbac } from './defaults.js';
import { normalizeRules } from './rules.js';
import { METRICS_GROUP, METRICS_RESOURCES } from '../../apiserver/resource-metrics/metrics-api.js';
import {
  RBAC,
  WRITE,
  clusterRole,
  nonResource,
  openTestStore,
  startDefaultRbac,
  request,
  roleBinding,
  user,
  type TestStore,
} from '../../../test/support/auth/rbac-store.js';

const clusterRoles = findResource(RBAC, 'v1', 'clusterroles')!;
const clusterRoleBindings = findResource(RBAC, 'v1', 'clusterrolebindings')!;

describe('default RBAC policy', () => {
  let t: TestStore;
  let rbac: RbacAuthorizer;
  let stopRbac: () => void;
  const viewer = user('vera');
  const editor = user('eddie');
  const admin = user('ada');

  before(async () => {
    t = await openTestStore();
    ({ rbac, stop: stopRbac } = await startDefaultRbac(t));
    for (const [who, roleName] of [
      ['vera', 'view'],
      ['eddie', 'edit'],
      ['ada', 'admin'],
    ] as const) {
      await t.create(roleBinding('dev', `${who}-${roleName}`, { kind: 'ClusterRole', name: roleName }, [{ kind: 'User', name: who }]));
    }
    await waitFor('admin aggregated edit and view', () => rbac.authorize(request(admin, 'list', 'pods', { namespace: 'dev' })).allowed);
  });
  after(async () => {
    stopRbac();
    await t.close();
  });

  it('labels and annotates every default as Kubernetes does', async () => {
    const role = await t.store.get(keyFor(clusterRoles, undefined, 'cluster-admin'));
    assert.equal(role?.metadata.labels?.['kubernetes.io/bootstrapping'], 'rbac-defaults');
    assert.equal(role?.metadata.annotations?.[AUTOUPDATE_ANNOTATION], 'true');
  });

  it('writes nothing when started again on an unchanged store', async () => {
    const before = await t.store.currentRevision();
    await ensureDefaultRbac(t.registry);
    assert.equal(await t.store.currentRevision(), before);
  });

  it('view reads workloads but not Secrets, and writes nothing', () => {
    const ns = { namespace: 'dev' };
    assert.equal(rbac.authorize(request(viewer, 'list', 'pods', ns)).allowed, true);
    assert.equal(rbac.authorize(request(viewer, 'get', 'pods/log', { ...ns, name: 'p' })).allowed, true);
    assert.equal(rbac.authorize(request(viewer, 'watch', 'deployments', { ...ns, group: 'apps' })).allowed, true);
    assert.equal(rbac.authorize(request(viewer, 'list', 'pytorchjobs', { ...ns, group: 'kubeflow.org' })).allowed, true);
    assert.equal(rbac.authorize(request(viewer, 'get', 'podgroups', { ...ns, group: 'scheduling.x-k8s.io', name: 'g' })).allowed, true);
    assert.equal(rbac.authorize(request(viewer, 'get', 'secrets', { ...ns, name: 's' })).allowed, false);
    assert.equal(rbac.authorize(request(viewer, 'list', 'secrets', ns)).allowed, false);
    assert.equal(rbac.authorize(request(viewer, 'create', 'pods', ns)).allowed, false);
    assert.equal(rbac.authorize(request(viewer, 'create', 'pods/exec', { ...ns, name: 'p' })).allowed, false);
    assert.equal(rbac.authorize(request(viewer, 'list', 'pods', { namespace: 'prod' })).allowed, false);
  });

  it('edit writes workloads and Secrets, but not roles, bindings, namespaces or status', () => {
    const ns = { namespace: 'dev' };
    assert.equal(rbac.authorize(request(editor, 'create', 'deployments', { ...ns, group: 'apps' })).allowed, true);
    assert.equal(rbac.authorize(request(editor, 'update', 'deployments/scale', { ...ns, group: 'apps', name: 'd' })).allowed, true);
    assert.equal(rbac.authorize(request(editor, 'create', 'secrets', ns)).allowed, true);
    assert.equal(rbac.authorize(request(editor, 'get', 'secrets', { ...ns, name: 's' })).allowed, true);
    assert.equal(rbac.authorize(request(editor, 'create', 'pytorchjobs', { ...ns, group: 'kubeflow.org' })).allowed, true);
    assert.equal(rbac.authorize(request(editor, 'create', 'pods/exec', { ...ns, name: 'p' })).allowed, true);
    assert.equal(rbac.authorize(request(editor, 'list', 'pods', ns)).allowed, true, 'edit includes view');
    assert.equal(rbac.authorize(request(editor, 'create', 'roles', { ...ns, group: RBAC })).allowed, false);
    assert.equal(rbac.authorize(request(editor, 'create', 'rolebindings', { ...ns, group: RBAC })).allowed, false);
    assert.equal(rbac.authorize(request(editor, 'update', 'deployments/status', { ...ns, group: 'apps', name: 'd' })).allowed, false);
    assert.equal(rbac.authorize(request(editor, 'delete', 'namespaces', { ...ns, name: 'dev' })).allowed, false);
  });

  it('admin adds roles and rolebindings in its namespace, never namespaces', () => {
    const ns = { namespace: 'dev', group: RBAC };
    assert.equal(rbac.authorize(request(admin, 'create', 'rolebindings', ns)).allowed, true);
    assert.equal(rbac.authorize(request(admin, 'delete', 'roles', { ...ns, name: 'r' })).allowed, true);
    assert.equal(rbac.authorize(request(admin, 'create', 'localsubjectaccessreviews', { namespace: 'dev', group: 'authorization.k8s.io' })).allowed, true);
    assert.equal(rbac.authorize(request(admin, 'create', 'secrets', { namespace: 'dev' })).allowed, true, 'admin includes edit');
    assert.equal(rbac.authorize(request(admin, 'create', 'rolebindings', { ...ns, namespace: 'prod' })).allowed, false);
    assert.equal(rbac.authorize(request(admin, 'create', 'clusterrolebindings', { group: RBAC })).allowed, false);
    assert.equal(rbac.authorize(request(admin, 'update', 'namespaces', { namespace: 'dev', name: 'dev' })).allowed, false);
  });

  it('cluster-admin through system:masters; discovery and public info for everyone', () => {
    const root = user('root', 'system:masters');
    assert.deepEqual(rbac.authorize(request(root, 'delete', 'nodes', { name: 'n1' })), {
      allowed: true,
      reason: 'RBAC: allowed by ClusterRoleBinding "cluster-admin" of ClusterRole "cluster-admin" to Group "system:masters"',
    });
    assert.equal(rbac.authorize(nonResource(root, 'post', '/anything')).allowed, true);
    const someone = user('someone');
    assert.equal(rbac.authorize(nonResource(someone, 'get', '/apis/apps/v1')).allowed, true);
    assert.equal(rbac.authorize(nonResource(someone, 'get', '/openapi/v3')).allowed, true);
    assert.equal(rbac.authorize(request(someone, 'create', 'selfsubjectaccessreviews', { group: 'authorization.k8s.io' })).allowed, true);
    assert.equal(rbac.authorize(request(someone, 'create', 'selfsubjectreviews', { group: 'authentication.k8s.io' })).allowed, true);
    assert.equal(rbac.authorize(request(someone, 'list', 'pods')).allowed, false);
    const anonymous = { username: 'system:anonymous', groups: ['system:unauthenticated'] };
    assert.equal(rbac.authorize(nonResource(anonymous, 'get', '/healthz')).allowed, true);
    assert.equal(rbac.authorize(nonResource(anonymous, 'get', '/apis')).allowed, false);
  });

  it('puts back lost rules and subjects at the next start, keeping what users added, unless autoupdate is "false"', async () => {
    const discovery = (await t.store.get(keyFor(clusterRoles, undefined, 'system:public-info-viewer')))!;
    discovery['rules'] = [{ verbs: ['get'], nonResourceURLs: ['/metrics'] }];
    await t.registry.update(clusterRoles, undefined, 'system:public-info-viewer', discovery, WRITE);
    const binding = (await t.store.get(keyFor(clusterRoleBindings, undefined, 'cluster-admin')))!;
    binding['subjects'] = [{ kind: 'User', apiGroup: RBAC, name: 'root' }];
    await t.registry.update(clusterRoleBindings, undefined, 'cluster-admin', binding, WRITE);
    const basic = (await t.store.get(keyFor(clusterRoles, undefined, 'system:basic-user')))!;
    basic['rules'] = [];
    basic.metadata.annotations = { [AUTOUPDATE_ANNOTATION]: 'false' };
    await t.registry.update(clusterRoles, undefined, 'system:basic-user', basic, WRITE);

    await ensureDefaultRbac(t.registry);
    const publicInfo = await t.store.get(keyFor(clusterRoles, undefined, 'system:public-info-viewer'));
    const anonymous = { username: 'system:anonymous', groups: ['system:unauthenticated'] };
    const rules = normalizeRules(publicInfo?.['rules']);
    assert.ok(
      rules.some((r) => r.nonResourceURLs.includes('/metrics')),
      'the added rule stays',
    );
    assert.ok(
      rules.some((r) => r.nonResourceURLs.includes('/healthz')),
      'the default rule is back',
    );
    const subjects = (await t.store.get(keyFor(clusterRoleBindings, undefined, 'cluster-admin')))?.['subjects'];
    assert.deepEqual(subjects, [
      { kind: 'User', apiGroup: RBAC, name: 'root' },
      { kind: 'Group', apiGroup: RBAC, name: 'system:masters' },
    ]);
    assert.deepEqual((await t.store.get(keyFor(clusterRoles, undefined, 'system:basic-user')))?.['rules'], []);
    await waitFor('the reconciled role is cached', () => rbac.authorize(nonResource(anonymous, 'get', '/readyz')).allowed);
  });

  it('names only resources Drover serves', () => {
    const served = new Set([
      ...resourceDefinitions.map((d) => `${d.group}/${d.plural}`),
      ...subresourceDefinitions.map((s) => `${s.group}/${s.resource}/${s.name}`),
      // Served without definitions: src/apiserver/resource-metrics/.
      ...METRICS_RESOURCES.map((r) => `${METRICS_GROUP}/${r}`),
    ]);
    for (const role of defaultClusterRoles()) {
      for (const rule of normalizeRules(role['rules'])) {
        for (const group of rule.apiGroups) {
          for (const resource of rule.resources) {
            if (group === '*' || resource === '*') continue;
            assert.ok(served.has(`${group}/${resource}`), `${role.metadata.name}: ${group}/${resource}`);
          }
        }
      }
    }
  });

  it('a labelled ClusterRole extends view, edit and admin', async () => {
    await t.create(
      clusterRole('widgets-view', [{ verbs: ['get'], apiGroups: ['example.com'], resources: ['widgets'] }], { [`${RBAC}/aggregate-to-view`]: 'true' }),
    );
    const ask = (who: ReturnType<typeof user>) => rbac.authorize(request(who, 'get', 'widgets', { group: 'example.com', namespace: 'dev', name: 'w' })).allowed;
    await waitFor('admin sees widgets through edit and view', () => ask(viewer) && ask(editor) && ask(admin));
  });
});
