import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { normalizeRule, ruleAllows } from './rules.js';
import { nonResource, request, user } from '../../../test/support/auth/rbac-store.js';

const alice = user('alice');

describe('RBAC rule matching', () => {
  const cases: Array<[string, Record<string, string[]>, ReturnType<typeof request>, boolean]> = [
    ['exact verb, group, resource', { verbs: ['get'], apiGroups: [''], resources: ['pods'] }, request(alice, 'get', 'pods', { name: 'p' }), true],
    ['another verb', { verbs: ['get'], apiGroups: [''], resources: ['pods'] }, request(alice, 'delete', 'pods', { name: 'p' }), false],
    ['another group', { verbs: ['get'], apiGroups: [''], resources: ['deployments'] }, request(alice, 'get', 'deployments', { group: 'apps' }), false],
    [
      'verb wildcard',
      { verbs: ['*'], apiGroups: ['apps'], resources: ['deployments'] },
      request(alice, 'deletecollection', 'deployments', { group: 'apps' }),
      true,
    ],
    ['group wildcard', { verbs: ['list'], apiGroups: ['*'], resources: ['jobs'] }, request(alice, 'list', 'jobs', { group: 'batch' }), true],
    ['resource wildcard covers subresources', { verbs: ['get'], apiGroups: [''], resources: ['*'] }, request(alice, 'get', 'pods/log'), true],
    [
      'a resource does not cover its subresources',
      { verbs: ['get'], apiGroups: [''], resources: ['pods'] },
      request(alice, 'get', 'pods/log', { name: 'p' }),
      false,
    ],
    ['a subresource by name', { verbs: ['get'], apiGroups: [''], resources: ['pods/log'] }, request(alice, 'get', 'pods/log', { name: 'p' }), true],
    [
      'a subresource does not cover its resource',
      { verbs: ['get'], apiGroups: [''], resources: ['pods/log'] },
      request(alice, 'get', 'pods', { name: 'p' }),
      false,
    ],
    [
      '*/scale covers every scale',
      { verbs: ['update'], apiGroups: ['apps'], resources: ['*/scale'] },
      request(alice, 'update', 'deployments/scale', { group: 'apps', name: 'd' }),
      true,
    ],
    [
      '*/scale is only scale',
      { verbs: ['update'], apiGroups: ['apps'], resources: ['*/scale'] },
      request(alice, 'update', 'deployments/status', { group: 'apps', name: 'd' }),
      false,
    ],
    [
      '*/scale is not the resource',
      { verbs: ['update'], apiGroups: ['apps'], resources: ['*/scale'] },
      request(alice, 'update', 'deployments', { group: 'apps', name: 'd' }),
      false,
    ],
    // Kubernetes has no "every subresource of pods" form: pods/* is a literal name and matches nothing real.
    ['pods/* is not a wildcard', { verbs: ['get'], apiGroups: [''], resources: ['pods/*'] }, request(alice, 'get', 'pods/log', { name: 'p' }), false],
    [
      'resourceNames allow the named object',
      { verbs: ['get'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['settings'] },
      request(alice, 'get', 'configmaps', { name: 'settings' }),
      true,
    ],
    [
      'resourceNames refuse other names',
      { verbs: ['get'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['settings'] },
      request(alice, 'get', 'configmaps', { name: 'other' }),
      false,
    ],
    [
      'resourceNames never allow a list',
      { verbs: ['list'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['settings'] },
      request(alice, 'list', 'configmaps'),
      false,
    ],
    [
      'resourceNames never allow a create',
      { verbs: ['create'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['settings'] },
      request(alice, 'create', 'configmaps'),
      false,
    ],
    ['a resource rule does not match a URL', { verbs: ['get'], apiGroups: ['*'], resources: ['*'] }, nonResource(alice, 'get', '/healthz'), false],
    ['a URL exactly', { verbs: ['get'], nonResourceURLs: ['/healthz'] }, nonResource(alice, 'get', '/healthz'), true],
    ['a URL is not a prefix', { verbs: ['get'], nonResourceURLs: ['/healthz'] }, nonResource(alice, 'get', '/healthz/ping'), false],
    ['a trailing * is a prefix', { verbs: ['get'], nonResourceURLs: ['/apis/*'] }, nonResource(alice, 'get', '/apis/apps/v1'), true],
    ['a prefix needs its slash', { verbs: ['get'], nonResourceURLs: ['/apis/*'] }, nonResource(alice, 'get', '/apis'), false],
    ['* is every URL', { verbs: ['*'], nonResourceURLs: ['*'] }, nonResource(alice, 'post', '/anything'), true],
    ['a URL rule needs the verb', { verbs: ['get'], nonResourceURLs: ['/healthz'] }, nonResource(alice, 'post', '/healthz'), false],
    ['a URL rule does not match resources', { verbs: ['*'], nonResourceURLs: ['*'] }, request(alice, 'get', 'pods'), false],
  ];
  for (const [name, rule, attributes, allowed] of cases) {
    it(name, () => assert.equal(ruleAllows(attributes, normalizeRule(rule)), allowed));
  }
});
