import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { nonResourceRequest } from '../../auth/request-attributes.js';
import { ANONYMOUS_USER } from '../../auth/types.js';
import { evaluatePolicy, parsePolicy } from './policy.js';
import type { AuditAttributes } from './types.js';
import { request } from '../../../test/support/auth/rbac-store.js';

const admin = { username: 'admin', groups: ['system:masters', 'system:authenticated'] };

function resource(verb: string, resource: string, extra: Partial<AuditAttributes> = {}): AuditAttributes {
  return { ...request(admin, verb, resource, { namespace: 'default' }), ...extra };
}

function nonResource(path: string): AuditAttributes {
  return nonResourceRequest(ANONYMOUS_USER, 'get', path);
}

const POLICY = `
apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: [RequestReceived]
rules:
  - level: None
    nonResourceURLs: ["/healthz*", "/version"]
  - level: None
    users: ["system:kube-proxy"]
  - level: RequestResponse
    resources:
      - group: ""
        resources: ["pods/log", "*/status"]
  - level: Request
    verbs: ["create", "update"]
    resources:
      - group: apps
        resources: ["deployments"]
        resourceNames: ["web"]
    omitStages: [ResponseStarted]
  - level: Metadata
    resources:
      - group: ""
        resources: ["secrets", "configmaps"]
    omitManagedFields: true
  - level: Request
    namespaces: ["team-a"]
  - level: Metadata
    userGroups: ["system:masters"]
`;

describe('audit policy', () => {
  const policy = parsePolicy(POLICY);
  const level = (attrs: AuditAttributes) => evaluatePolicy(policy, attrs).level;

  it('matches non-resource URLs exactly or by a trailing * prefix, never resource requests', () => {
    assert.equal(level(nonResource('/healthz')), 'None');
    assert.equal(level(nonResource('/healthz/etcd')), 'None');
    assert.equal(level(nonResource('/version')), 'None');
    assert.equal(level(nonResource('/versions')), 'None'); // no rule matches an anonymous /versions
    assert.equal(level(nonResource('/metrics')), 'None');
    assert.equal(level({ ...nonResource('/metrics'), user: admin }), 'Metadata');
  });

  it('matches users, subresources and */subresource wildcards; a plain resource is not its subresources', () => {
    assert.equal(level({ ...resource('get', 'pods'), user: { username: 'system:kube-proxy', groups: [] } }), 'None');
    assert.equal(level(resource('get', 'pods', { subresource: 'log' })), 'RequestResponse');
    assert.equal(level(resource('update', 'nodes', { subresource: 'status', namespace: '' })), 'RequestResponse');
    assert.equal(level(resource('get', 'pods', { subresource: 'exec' })), 'Metadata');
  });

  it('matches verbs, groups and resource names together', () => {
    const deployment = (verb: string, name: string) => resource(verb, 'deployments', { apiGroup: 'apps', name });
    assert.equal(level(deployment('update', 'web')), 'Request');
    assert.equal(level(deployment('update', 'api')), 'Metadata');
    assert.equal(level(deployment('delete', 'web')), 'Metadata');
    assert.equal(level(resource('update', 'deployments', { name: 'web' })), 'Metadata'); // core group: no such rule
  });

  it('matches namespaces, and unions policy and rule omitStages', () => {
    assert.equal(level({ ...resource('list', 'services', { namespace: 'team-a' }), user: ANONYMOUS_USER }), 'Request');
    assert.equal(level({ ...resource('list', 'services', { namespace: 'team-b' }), user: ANONYMOUS_USER }), 'None');
    const config = evaluatePolicy(policy, resource('create', 'deployments', { apiGroup: 'apps', name: 'web' }));
    assert.deepEqual([...config.omitStages].sort(), ['RequestReceived', 'ResponseStarted']);
    assert.equal(config.omitManagedFields, false);
    assert.equal(evaluatePolicy(policy, resource('get', 'secrets')).omitManagedFields, true);
  });

  it('treats "*" as every resource and subresource, and resource/* as the resource and its subresources', () => {
    const p = parsePolicy(
      '{"apiVersion":"audit.k8s.io/v1","kind":"Policy","rules":[{"level":"Request","resources":[{"group":"","resources":["pods/*"]}]},{"level":"Metadata","resources":[{"group":"","resources":["*"]}]}]}',
    );
    assert.equal(evaluatePolicy(p, resource('get', 'pods')).level, 'Request');
    assert.equal(evaluatePolicy(p, resource('get', 'pods', { subresource: 'log' })).level, 'Request');
    assert.equal(evaluatePolicy(p, resource('get', 'services', { subresource: 'proxy' })).level, 'Metadata');
    assert.equal(evaluatePolicy(p, resource('get', 'deployments', { apiGroup: 'apps' })).level, 'None');
  });

  it('refuses malformed policies with the field at fault', () => {
    const bad = (text: string, message: RegExp) => assert.throws(() => parsePolicy(text), message);
    bad('rules: [', /not YAML or JSON/);
    bad('apiVersion: audit.k8s.io/v1beta1\nkind: Policy\nrules: [{level: None}]', /apiVersion: Unsupported value/);
    bad('apiVersion: audit.k8s.io/v1\nkind: Policy\nrules: []', /rules: Required value/);
    bad('apiVersion: audit.k8s.io/v1\nkind: Policy\nrules: [{level: Everything}]', /rules\[0\]\.level: Unsupported value: "Everything"/);
    bad(
      'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules: [{level: None, nonResourceURLs: ["/a"], resources: [{group: ""}]}]',
      /both regular resources and non-resource URLs/,
    );
    bad('apiVersion: audit.k8s.io/v1\nkind: Policy\nrules: [{level: None, nonResourceURLs: ["/a*b"]}]', /must be the final character/);
    bad('apiVersion: audit.k8s.io/v1\nkind: Policy\nomitStages: [Done]\nrules: [{level: None}]', /omitStages\[0\]: Unsupported value: "Done"/);
    bad('apiVersion: audit.k8s.io/v1\nkind: Policy\nrules: [{level: None, resources: [{resourceNames: [x]}]}]', /requires at least one resource/);
    bad('apiVersion: audit.k8s.io/v1\nkind: Policy\nrules: [{level: None, verb: [get]}]', /rules\[0\]\.verb: unknown field/);
  });
});
