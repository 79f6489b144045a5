// The authorizer against a real SQLite store: roles and bindings are written through the
// registry and reach the authorizer's cache by its watch.
import { waitFor } from '../../../test/support/wait-for.js';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { findResource } from '../../api/registry.js';
import { createRbacAuthorizer, type RbacAuthorizer } from './authorizer.js';
import {
  RBAC,
  clusterRole,
  clusterRoleBinding,
  nonResource,
  openTestStore,
  request,
  role,
  roleBinding,
  user,
  type TestStore,
} from '../../../test/support/auth/rbac-store.js';

describe('RBAC authorizer', () => {
  let t: TestStore;
  let rbac: RbacAuthorizer;
  const alice = user('alice');
  const bob = user('bob', 'ops');
  const ci = user('system:serviceaccount:dev:ci', 'system:serviceaccounts', 'system:serviceaccounts:dev');

  before(async () => {
    t = await openTestStore();
    // Present before the authorizer starts: found by its list.
    await t.create(clusterRole('pod-reader', [{ verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['pods', 'pods/log'] }]));
    await t.create(roleBinding('dev', 'alice-reads-pods', { kind: 'ClusterRole', name: 'pod-reader' }, [{ kind: 'User', name: 'alice' }]));
    rbac = createRbacAuthorizer(t.store);
    await rbac.start();
  });
  after(async () => {
    rbac.stop();
    await t.close();
  });

  it('grants a RoleBinding only in its own namespace, and says which binding allowed it', () => {
    assert.deepEqual(rbac.authorize(request(alice, 'list', 'pods', { namespace: 'dev' })), {
      allowed: true,
      reason: 'RBAC: allowed by RoleBinding "alice-reads-pods/dev" of ClusterRole "pod-reader" to User "alice"',
    });
    assert.equal(rbac.authorize(request(alice, 'get', 'pods/log', { namespace: 'dev', name: 'web' })).allowed, true);
    assert.deepEqual(rbac.authorize(request(alice, 'list', 'pods', { namespace: 'prod' })), { allowed: false, reason: '' });
    // A list across all namespaces is a cluster-scoped request: a RoleBinding never grants it.
    assert.equal(rbac.authorize(request(alice, 'list', 'pods')).allowed, false);
    assert.equal(rbac.authorize(request(alice, 'delete', 'pods', { namespace: 'dev', name: 'web' })).allowed, false);
    assert.equal(rbac.authorize(request(bob, 'list', 'pods', { namespace: 'dev' })).allowed, false);
  });

  it('grants a ClusterRoleBinding everywhere, to groups as well as users', async () => {
    await t.create(clusterRoleBinding('ops-read-pods', 'pod-reader', [{ kind: 'Group', name: 'ops' }]));
    await waitFor('the binding is cached', () => rbac.authorize(request(bob, 'list', 'pods')).allowed);
    assert.deepEqual(rbac.authorize(request(bob, 'get', 'pods', { namespace: 'prod', name: 'x' })), {
      allowed: true,
      reason: 'RBAC: allowed by ClusterRoleBinding "ops-read-pods" of ClusterRole "pod-reader" to Group "ops"',
    });
  });

  it('binds a namespace Role only where it lives, with resourceNames restricting named requests', async () => {
    await t.create(role('dev', 'settings-editor', [{ verbs: ['get', 'update'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['settings'] }]));
    await t.create(roleBinding('dev', 'bob-settings', { kind: 'Role', name: 'settings-editor' }, [{ kind: 'User', name: 'bob' }]));
    await waitFor('the role binding is cached', () => rbac.authorize(request(bob, 'get', 'configmaps', { namespace: 'dev', name: 'settings' })).allowed);
    assert.equal(rbac.authorize(request(bob, 'update', 'configmaps', { namespace: 'dev', name: 'settings' })).allowed, true);
    assert.equal(rbac.authorize(request(bob, 'get', 'configmaps', { namespace: 'dev', name: 'other' })).allowed, false);
    assert.equal(rbac.authorize(request(bob, 'list', 'configmaps', { namespace: 'dev' })).allowed, false);
    assert.equal(rbac.authorize(request(bob, 'get', 'configmaps', { namespace: 'prod', name: 'settings' })).allowed, false);
  });

  it("matches ServiceAccount subjects by their user name, defaulting to the binding's namespace", async () => {
    await t.create(clusterRole('job-runner', [{ verbs: ['create'], apiGroups: ['batch'], resources: ['jobs'] }]));
    await t.create(roleBinding('dev', 'ci-runs-jobs', { kind: 'ClusterRole', name: 'job-runner' }, [{ kind: 'ServiceAccount', name: 'ci' }]));
    await t.create(
      roleBinding('prod', 'dev-ci-in-prod', { kind: 'ClusterRole', name: 'job-runner' }, [{ kind: 'ServiceAccount', name: 'ci', namespace: 'dev' }]),
    );
    await t.create(roleBinding('prod', 'prod-ci-in-prod', { kind: 'ClusterRole', name: 'pod-reader' }, [{ kind: 'ServiceAccount', name: 'ci' }]));
    await waitFor(
      'the service-account bindings are cached',
      () => rbac.authorize(request(ci, 'create', 'jobs', { group: 'batch', namespace: 'prod' })).allowed,
    );
    assert.deepEqual(rbac.authorize(request(ci, 'create', 'jobs', { group: 'batch', namespace: 'dev' })), {
      allowed: true,
      reason: 'RBAC: allowed by RoleBinding "ci-runs-jobs/dev" of ClusterRole "job-runner" to ServiceAccount "ci/dev"',
    });
    // prod's own "ci" is system:serviceaccount:prod:ci, not this one.
    assert.equal(rbac.authorize(request(ci, 'list', 'pods', { namespace: 'prod' })).allowed, false);
    // A group binding for every service account of a namespace.
    await t.create(roleBinding('prod', 'dev-sas', { kind: 'ClusterRole', name: 'pod-reader' }, [{ kind: 'Group', name: 'system:serviceaccounts:dev' }]));
    await waitFor('the group binding is cached', () => rbac.authorize(request(ci, 'list', 'pods', { namespace: 'prod' })).allowed);
  });

  it('grants non-resource URLs through ClusterRoleBindings', async () => {
    await t.create(clusterRole('metrics-reader', [{ verbs: ['get'], nonResourceURLs: ['/metrics', '/debug/*'] }]));
    await t.create(clusterRoleBinding('alice-metrics', 'metrics-reader', [{ kind: 'User', name: 'alice' }]));
    await waitFor('the URL binding is cached', () => rbac.authorize(nonResource(alice, 'get', '/metrics')).allowed);
    assert.equal(rbac.authorize(nonResource(alice, 'get', '/debug/pprof/heap')).allowed, true);
    assert.equal(rbac.authorize(nonResource(alice, 'get', '/healthz')).allowed, false);
    assert.equal(rbac.authorize(nonResource(alice, 'post', '/metrics')).allowed, false);
  });

  it('forgets deleted bindings and reports bindings to missing roles', async () => {
    await t.create(clusterRoleBinding('carol-ghost', 'no-such-role', [{ kind: 'User', name: 'carol' }]));
    const carol = user('carol');
    await waitFor('the dangling binding is cached', () => rbac.authorize(request(carol, 'get', 'pods')).reason !== '');
    assert.deepEqual(rbac.authorize(request(carol, 'get', 'pods')), {
      allowed: false,
      reason: 'RBAC: clusterrole.rbac.authorization.k8s.io "no-such-role" not found',
    });
    await t.registry.delete(findResource(RBAC, 'v1', 'clusterrolebindings')!, undefined, 'ops-read-pods', { dryRun: false });
    await waitFor('the deleted binding is gone', () => !rbac.authorize(request(bob, 'list', 'pods')).allowed);
  });

  it('lists the rules a user holds in a namespace, as SelfSubjectRulesReview', () => {
    const review = rbac.rulesFor(bob, 'dev');
    assert.deepEqual(review, {
      resourceRules: [{ verbs: ['get', 'update'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['settings'] }],
      nonResourceRules: [],
      incomplete: false,
    });
    const aliceRules = rbac.rulesFor(alice, 'dev');
    assert.deepEqual(aliceRules.nonResourceRules, [{ verbs: ['get'], nonResourceURLs: ['/metrics', '/debug/*'] }]);
    assert.deepEqual(aliceRules.resourceRules, [{ verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['pods', 'pods/log'] }]);
    assert.equal(rbac.rulesFor(user('carol'), 'dev').evaluationError, 'clusterrole.rbac.authorization.k8s.io "no-such-role" not found');
  });
});
