// RBAC decisions are remembered only while the roles and bindings they were made from stay as
// they are: every RBAC write reaches the authorizer's cache by its watch and empties them.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { findResource } from '../../api/registry.js';
import { waitFor } from '../../../test/support/wait-for.js';
import type { Decision, RequestAttributes } from '../types.js';
import { createRbacAuthorizer, type RbacAuthorizer } from './authorizer.js';
import { DecisionCache, questionKey } from './decision-cache.js';
import { RBAC, clusterRole, openTestStore, request, roleBinding, user, WRITE, type TestStore } from '../../../test/support/auth/rbac-store.js';

describe('RBAC decision cache', () => {
  let t: TestStore;
  let rbac: RbacAuthorizer;
  const carol = user('carol');
  const listPods = request(carol, 'list', 'pods', { namespace: 'dev' });

  before(async () => {
    t = await openTestStore();
    await t.create(clusterRole('pod-lister', [{ verbs: ['list'], apiGroups: [''], resources: ['pods'] }]));
    rbac = createRbacAuthorizer(t.store);
    await rbac.start();
  });
  after(async () => {
    rbac.stop();
    await t.close();
  });

  it('answers anew once a binding is written, and again once it is deleted', async () => {
    assert.equal(rbac.authorize(listPods).allowed, false);
    assert.equal(rbac.authorize(listPods).allowed, false);
    await t.create(roleBinding('dev', 'carol-lists', { kind: 'ClusterRole', name: 'pod-lister' }, [{ kind: 'User', name: 'carol' }]));
    await waitFor('the binding to allow', () => rbac.authorize(listPods).allowed);
    assert.equal(rbac.authorize(listPods).reason, 'RBAC: allowed by RoleBinding "carol-lists/dev" of ClusterRole "pod-lister" to User "carol"');
    await t.registry.delete(findResource(RBAC, 'v1', 'rolebindings')!, 'dev', 'carol-lists', { dryRun: false });
    await waitFor('the deleted binding to stop allowing', () => !rbac.authorize(listPods).allowed);
  });

  it('answers anew once a role loses the rule', async () => {
    await t.create(roleBinding('dev', 'carol-lists-again', { kind: 'ClusterRole', name: 'pod-lister' }, [{ kind: 'User', name: 'carol' }]));
    await waitFor('the second binding to allow', () => rbac.authorize(listPods).allowed);
    const roles = findResource(RBAC, 'v1', 'clusterroles')!;
    const role = await t.registry.get(roles, undefined, 'pod-lister');
    await t.registry.update(roles, undefined, 'pod-lister', { ...role, rules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }] }, WRITE);
    await waitFor('the narrowed role to stop allowing', () => !rbac.authorize(listPods).allowed);
  });

  it('keeps apart questions that differ in any attribute RBAC reads', () => {
    const base = request(user('a', 'g1', 'g2'), 'get', 'pods/log', { namespace: 'ns', name: 'web' });
    const variants: RequestAttributes[] = [
      { ...base, user: user('a', 'g1') },
      { ...base, user: user('a', 'g1g2') },
      { ...base, user: user('a:1', 'g1', 'g2') },
      { ...base, verb: 'list' },
      { ...base, apiGroup: 'apps' },
      { ...base, resource: 'services' },
      { ...base, subresource: '' },
      { ...base, namespace: '' },
      { ...base, name: 'webx' },
      { ...base, resourceRequest: false, path: '/logs' },
      // Fields whose boundaries move: the lengths keep them apart.
      { ...base, namespace: 'nsweb', name: '' },
    ];
    const keys = new Set([base, ...variants].map(questionKey));
    assert.equal(keys.size, variants.length + 1);
    // What RBAC does not read does not split the cache.
    assert.equal(questionKey({ ...base, apiVersion: 'v2', fieldSelector: 'spec.nodeName=x' }), questionKey(base));
  });

  it('forgets everything at a new version, and starts over when full', () => {
    const cache = new DecisionCache(2);
    let asked = 0;
    const decide = (): Decision => ({ allowed: true, reason: `answer ${++asked}` });
    const v1 = {};
    const q = (name: string) => request(carol, 'get', 'pods', { namespace: 'dev', name });
    assert.equal(cache.decide(q('a'), v1, decide).reason, 'answer 1');
    assert.equal(cache.decide(q('a'), v1, decide).reason, 'answer 1');
    assert.equal(cache.decide(q('a'), {}, decide).reason, 'answer 2');
    const v2 = {};
    cache.decide(q('a'), v2, decide);
    cache.decide(q('b'), v2, decide);
    cache.decide(q('c'), v2, decide);
    assert.ok(cache.size <= 2);
    assert.ok(Object.isFrozen(cache.decide(q('c'), v2, decide)));
  });
});
