import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../meta.js';
import { findResource } from '../registry.js';
import { validateObject } from './index.js';

const RBAC = 'rbac.authorization.k8s.io';
const def = (plural: string) => findResource(RBAC, 'v1', plural)!;

function errorsOf(plural: string, object: Record<string, unknown>, old?: Record<string, unknown>): string[] {
  const d = def(plural);
  const body = { apiVersion: `${RBAC}/v1`, kind: d.kind, ...object } as KubeObject;
  d.applyDefaults(body);
  return validateObject(d, body, old as KubeObject | undefined).map((e) => `${e.field}: ${e.message}`);
}

const roleRef = { apiGroup: RBAC, kind: 'ClusterRole', name: 'view' };

describe('rbac validation', () => {
  it('accepts names with colons, as the default roles have', () => {
    assert.deepEqual(errorsOf('clusterroles', { metadata: { name: 'system:aggregate-to-edit' }, rules: [] }), []);
    assert.deepEqual(errorsOf('clusterroles', { metadata: { name: 'a/b' } }), ['metadata.name: Invalid value: "a/b": may not contain \'/\'']);
  });

  it('needs verbs, and either resources or non-resource URLs', () => {
    assert.deepEqual(errorsOf('roles', { metadata: { name: 'r', namespace: 'ns' }, rules: [{ verbs: [], apiGroups: [''], resources: ['pods'] }] }), [
      'rules[0].verbs: Required value: verbs must contain at least one value',
    ]);
    assert.deepEqual(errorsOf('roles', { metadata: { name: 'r', namespace: 'ns' }, rules: [{ verbs: ['get'] }] }), [
      'rules[0].apiGroups: Required value: resource rules must supply at least one api group',
      'rules[0].resources: Required value: resource rules must supply at least one resource',
    ]);
    assert.deepEqual(errorsOf('roles', { metadata: { name: 'r', namespace: 'ns' }, rules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }] }), [
      'rules[0].nonResourceURLs: Invalid value: []string{"/healthz"}: namespaced rules cannot apply to non-resource URLs',
    ]);
    assert.deepEqual(errorsOf('clusterroles', { metadata: { name: 'c' }, rules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }] }), []);
    assert.deepEqual(errorsOf('clusterroles', { metadata: { name: 'c' }, rules: [{ verbs: ['get'], resources: ['pods'], nonResourceURLs: ['/healthz'] }] }), [
      'rules[0].nonResourceURLs: Invalid value: []string{"/healthz"}: rules cannot apply to both regular resources and non-resource URLs',
    ]);
  });

  it('needs a selector in an aggregation rule', () => {
    assert.deepEqual(errorsOf('clusterroles', { metadata: { name: 'c' }, aggregationRule: { clusterRoleSelectors: [] } }), [
      'aggregationRule.clusterRoleSelectors: Required value: at least one clusterRoleSelector required if aggregationRule is non-nil',
    ]);
  });

  it('checks the role reference and the subjects of bindings', () => {
    assert.deepEqual(
      errorsOf('rolebindings', {
        metadata: { name: 'b', namespace: 'ns' },
        roleRef: { kind: 'Role', name: 'r' },
        subjects: [
          { kind: 'User', name: 'alice' },
          { kind: 'ServiceAccount', name: 'ci' },
        ],
      }),
      [],
    );
    assert.deepEqual(errorsOf('clusterrolebindings', { metadata: { name: 'b' }, roleRef: { apiGroup: RBAC, kind: 'Role', name: 'r' } }), [
      'roleRef.kind: Unsupported value: "Role": supported values: "ClusterRole"',
    ]);
    assert.deepEqual(errorsOf('clusterrolebindings', { metadata: { name: 'b' }, roleRef, subjects: [{ kind: 'ServiceAccount', name: 'ci' }] }), [
      'subjects[0].namespace: Required value',
    ]);
    assert.deepEqual(
      errorsOf('clusterrolebindings', {
        metadata: { name: 'b' },
        roleRef,
        subjects: [
          { kind: 'ServiceAccount', apiGroup: RBAC, name: 'ci', namespace: 'x' },
          { kind: 'Robot', name: 'r2' },
        ],
      }),
      [
        'subjects[0].apiGroup: Unsupported value: "rbac.authorization.k8s.io": supported values: ""',
        'subjects[1].kind: Unsupported value: "Robot": supported values: "ServiceAccount", "User", "Group"',
      ],
    );
  });

  it('refuses to change roleRef', () => {
    const old = { apiVersion: `${RBAC}/v1`, kind: 'RoleBinding', metadata: { name: 'b', namespace: 'ns' }, roleRef };
    assert.deepEqual(errorsOf('rolebindings', { metadata: { name: 'b', namespace: 'ns' }, roleRef: { ...roleRef, name: 'edit' } }, old), [
      'roleRef: Invalid value: map[string]string{"apiGroup":"rbac.authorization.k8s.io", "kind":"ClusterRole", "name":"edit"}: cannot change roleRef',
    ]);
  });
});
