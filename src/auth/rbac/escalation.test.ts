// Escalation prevention against the default policy on a real SQLite store.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../api/meta.js';
import { findResource } from '../../api/registry.js';
import { ApiError } from '../../apiserver/errors.js';
import { ObjectRegistry } from '../../apiserver/registry/object-registry.js';
import { waitFor } from '../../../test/support/wait-for.js';
import type { RbacAuthorizer } from './authorizer.js';
import { checkRbacEscalation, escalationAdmission } from './escalation.js';
import {
  RBAC,
  clusterRole,
  clusterRoleBinding,
  openTestStore,
  startDefaultRbac,
  request,
  role,
  roleBinding,
  user,
  type TestStore,
} from '../../../test/support/auth/rbac-store.js';

const def = (plural: string) => findResource(RBAC, 'v1', plural)!;

describe('RBAC escalation prevention', () => {
  let t: TestStore;
  let rbac: RbacAuthorizer;
  let stopRbac: () => void;
  const admin = user('ada');
  const editor = user('eddie');

  function check(who: ReturnType<typeof user>, object: KubeObject, old?: KubeObject): ApiError | undefined {
    const plural = `${object.kind.toLowerCase()}s`;
    try {
      checkRbacEscalation(rbac, who, object, def(plural), old);
      return undefined;
    } catch (error) {
      if (error instanceof ApiError) return error;
      throw error;
    }
  }

  before(async () => {
    t = await openTestStore();
    ({ rbac, stop: stopRbac } = await startDefaultRbac(t));
    await t.create(roleBinding('dev', 'ada-admin', { kind: 'ClusterRole', name: 'admin' }, [{ kind: 'User', name: 'ada' }]));
    await t.create(roleBinding('dev', 'eddie-edit', { kind: 'ClusterRole', name: 'edit' }, [{ kind: 'User', name: 'eddie' }]));
    await t.create(clusterRole('node-reader', [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['nodes'] }]));
    // view's rules reach admin last (view → edit → admin).
    await waitFor(
      'admin aggregated',
      () =>
        rbac.authorize(request(admin, 'create', 'secrets', { namespace: 'dev' })).allowed &&
        rbac.authorize(request(admin, 'list', 'pods', { namespace: 'dev' })).allowed,
    );
  });
  after(async () => {
    stopRbac();
    await t.close();
  });

  it('lets a user make a Role of rules it holds, and refuses one with more', () => {
    assert.equal(check(admin, role('dev', 'deployer', [{ verbs: ['create', 'get'], apiGroups: ['apps'], resources: ['deployments'] }])), undefined);
    const refused = check(admin, role('dev', 'node-admin', [{ verbs: ['delete', 'get'], apiGroups: ['', 'apps'], resources: ['nodes'] }]));
    assert.equal(refused?.code, 403);
    assert.equal(
      refused?.message,
      'roles.rbac.authorization.k8s.io "node-admin" is forbidden: user "ada" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n' +
        '{APIGroups:[""], Resources:["nodes"], Verbs:["delete" "get"]}\n{APIGroups:["apps"], Resources:["nodes"], Verbs:["delete" "get"]}',
    );
    // Holding a rule in one namespace is not holding it in another.
    assert.equal(check(admin, role('prod', 'deployer', [{ verbs: ['get'], apiGroups: ['apps'], resources: ['deployments'] }]))?.code, 403);
  });

  it('lets a user bind a role it holds, and refuses one it does not', () => {
    assert.equal(check(admin, roleBinding('dev', 'bob-edit', { kind: 'ClusterRole', name: 'edit' }, [{ kind: 'User', name: 'bob' }])), undefined);
    assert.equal(check(admin, roleBinding('dev', 'bob-view', { kind: 'ClusterRole', name: 'view' }, [{ kind: 'User', name: 'bob' }])), undefined);
    const refused = check(admin, roleBinding('dev', 'bob-nodes', { kind: 'ClusterRole', name: 'node-reader' }, [{ kind: 'User', name: 'bob' }]));
    assert.equal(refused?.code, 403);
    assert.match(
      refused?.message ?? '',
      /^rolebindings\.rbac\.authorization\.k8s\.io "bob-nodes" is forbidden: user "ada" .*\n\{APIGroups:\[""\], Resources:\["nodes"\], Verbs:\["get" "list"\]\}$/,
    );
    assert.equal(check(admin, clusterRoleBinding('bob-view', 'view', [{ kind: 'User', name: 'bob' }]))?.code, 403, 'view everywhere is more than view in dev');
    assert.match(
      check(admin, roleBinding('dev', 'ghost', { kind: 'ClusterRole', name: 'nope' }, []))?.message ?? '',
      /clusterrole.rbac.authorization.k8s.io "nope" not found/,
    );
  });

  it('checks updates too, but not ones that only touch bookkeeping', () => {
    const binding = roleBinding('dev', 'eddie-edit', { kind: 'ClusterRole', name: 'edit' }, [{ kind: 'User', name: 'eddie' }]);
    const moreSubjects = { ...binding, subjects: [...(binding['subjects'] as unknown[]), { kind: 'User', apiGroup: RBAC, name: 'mallory' }] };
    assert.equal(check(user('nobody'), moreSubjects, binding)?.code, 403);
    const owned = { ...binding, metadata: { ...binding.metadata, finalizers: ['example.com/keep'] } };
    assert.equal(check(user('nobody'), owned, binding), undefined);
  });

  it('honours the escalate and bind verbs, and system:masters', async () => {
    await t.create(
      clusterRole('role-granter', [
        { verbs: ['escalate'], apiGroups: [RBAC], resources: ['roles'] },
        { verbs: ['bind'], apiGroups: [RBAC], resources: ['clusterroles'], resourceNames: ['node-reader'] },
      ]),
    );
    await t.create(roleBinding('dev', 'eddie-grants', { kind: 'ClusterRole', name: 'role-granter' }, [{ kind: 'User', name: 'eddie' }]));
    await waitFor('the granter binding is cached', () => rbac.authorize(request(editor, 'escalate', 'roles', { group: RBAC, namespace: 'dev' })).allowed);
    assert.equal(check(editor, role('dev', 'anything', [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }])), undefined);
    assert.equal(check(editor, roleBinding('dev', 'bob-nodes', { kind: 'ClusterRole', name: 'node-reader' }, [{ kind: 'User', name: 'bob' }])), undefined);
    assert.equal(check(editor, roleBinding('dev', 'bob-admin', { kind: 'ClusterRole', name: 'admin' }, [{ kind: 'User', name: 'bob' }]))?.code, 403);
    assert.equal(check(user('root', 'system:masters'), clusterRoleBinding('all', 'cluster-admin', [{ kind: 'User', name: 'bob' }])), undefined);
  });

  it("refuses as a step of the registry's validating admission, storing nothing, on create and on patch", async () => {
    const rolebindings = def('rolebindings');
    const registry = new ObjectRegistry(t.registry.store, { validating: [escalationAdmission(rbac)] });
    const options = { dryRun: false, fieldManager: 'test', fieldValidation: 'Strict' as const, user: editor };
    const escalating = roleBinding('dev', 'eddie-admin', { kind: 'ClusterRole', name: 'admin' }, [{ kind: 'User', name: 'eddie' }]);
    try {
      await assert.rejects(registry.create(rolebindings, 'dev', escalating, options), (error: ApiError) => error.code === 403);
      await assert.rejects(registry.get(rolebindings, 'dev', 'eddie-admin'), (error: ApiError) => error.code === 404);
      // eddie may not add subjects to ada's admin binding either.
      const patch = { subjects: [{ kind: 'User', apiGroup: RBAC, name: 'eddie' }] };
      await assert.rejects(
        registry.patch(rolebindings, 'dev', 'ada-admin', 'merge', patch, { ...options, force: false }),
        (error: ApiError) => error.code === 403,
      );
    } finally {
      registry.close();
    }
  });

  it('asks for everything before a ClusterRole may aggregate', () => {
    const aggregate: KubeObject = {
      apiVersion: `${RBAC}/v1`,
      kind: 'ClusterRole',
      metadata: { name: 'grab-all' },
      aggregationRule: { clusterRoleSelectors: [{ matchLabels: { any: 'thing' } }] },
    };
    assert.match(check(admin, aggregate)?.message ?? '', /must have cluster-admin privileges to use the aggregationRule$/);
  });
});
