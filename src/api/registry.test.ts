import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findByAnyName, findByKind, findResource, resourceDefinitions, subresourceDefinitions } from './registry.js';
import { fieldSchema, isMapSchema, itemSchema, listSemantics, type JsonSchema } from './schema-nav.js';
import { isObject, type KubeObject } from './meta.js';

function at(schema: unknown, ...path: string[]): JsonSchema | undefined {
  let node = schema as JsonSchema | undefined;
  for (const part of path) node = part === '[]' ? itemSchema(node) : fieldSchema(node, part);
  return node;
}

test('lookups by resource, kind and any name', () => {
  assert.equal(findResource('apps', 'v1', 'deployments')?.kind, 'Deployment');
  assert.equal(findByKind('', 'v1', 'Pod')?.plural, 'pods');
  for (const [name, kind] of [
    ['po', 'Pod'],
    ['pod', 'Pod'],
    ['pods', 'Pod'],
    ['deploy', 'Deployment'],
    ['svc', 'Service'],
    ['ev', 'Event'],
    ['ns', 'Namespace'],
    ['no', 'Node'],
    ['cm', 'ConfigMap'],
    ['sa', 'ServiceAccount'],
    ['rs', 'ReplicaSet'],
    ['ds', 'DaemonSet'],
    ['ep', 'Endpoints'],
    ['lease', 'Lease'],
    ['deployments.apps', 'Deployment'],
    ['jobs.v1.batch', 'Job'],
    ['Secret', 'Secret'],
  ]) {
    assert.equal(findByAnyName(name as string)?.kind, kind, name);
  }
  assert.equal(findByAnyName('deployments.batch'), undefined);
});

test('every definition is complete and consistent', () => {
  for (const def of resourceDefinitions) {
    const gvk = (def.schema as JsonSchema)['x-kubernetes-group-version-kind'];
    assert.deepEqual(gvk, [{ group: def.group, kind: def.kind, version: def.version }], def.kind);
    assert.equal(def.listKind, `${def.kind}List`);
    // Reviews are create-only and answered (def.answer); every other kind is stored and served.
    if (def.answer) assert.deepEqual(def.verbs, ['create'], def.kind);
    else assert.ok(def.verbs.includes('get') && def.verbs.includes('watch'), def.kind);
    assert.equal(def.table.columns.length > 0, true);
  }
  const all = resourceDefinitions
    .filter((def) => def.categories.includes('all'))
    .map((def) => def.plural)
    .sort();
  assert.deepEqual(all, [
    'cronjobs',
    'daemonsets',
    'deployments',
    'horizontalpodautoscalers',
    'jobs',
    'pods',
    'replicasets',
    'replicationcontrollers',
    'services',
    'statefulsets',
  ]);
  assert.ok(subresourceDefinitions.some((s) => s.resource === 'pods' && s.name === 'binding'));
  assert.ok(subresourceDefinitions.some((s) => s.resource === 'deployments' && s.name === 'scale'));
});

test('field selectors read the object', () => {
  const pods = findByKind('', 'v1', 'Pod');
  assert.ok(pods);
  const pod: KubeObject = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p' },
    spec: { nodeName: 'n1' },
    status: { phase: 'Running', podIPs: [{ ip: '10.0.0.1' }] },
  };
  assert.equal(pods.fieldSelectors['spec.nodeName']?.(pod), 'n1');
  assert.equal(pods.fieldSelectors['status.phase']?.(pod), 'Running');
  assert.equal(pods.fieldSelectors['status.podIP']?.(pod), '10.0.0.1');
  assert.equal(pods.fieldSelectors['spec.schedulerName']?.(pod), '');
  const events = findByKind('', 'v1', 'Event');
  const event: KubeObject = {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: 'e' },
    involvedObject: { kind: 'Pod', name: 'p' },
    source: { component: 'kubelet' },
  };
  assert.equal(events?.fieldSelectors['involvedObject.kind']?.(event), 'Pod');
  assert.equal(events?.fieldSelectors['source']?.(event), 'kubelet');
});

test('schema-nav reads the merge semantics of the schemas', () => {
  const deployment = findByKind('apps', 'v1', 'Deployment')?.schema;
  const podSpec = at(deployment, 'spec', 'template', 'spec');
  assert.deepEqual(listSemantics(at(podSpec, 'containers')), { listType: 'map', mapKeys: ['name'], patchMergeKey: 'name', patchStrategy: 'merge' });
  assert.deepEqual(listSemantics(at(podSpec, 'containers', '[]', 'ports')).mapKeys, ['containerPort', 'protocol']);
  assert.equal(listSemantics(at(podSpec, 'containers', '[]', 'ports')).patchMergeKey, 'containerPort');
  assert.equal(listSemantics(at(podSpec, 'containers', '[]', 'volumeMounts')).patchMergeKey, 'mountPath');
  assert.equal(listSemantics(at(podSpec, 'containers', '[]', 'env')).patchMergeKey, 'name');
  assert.equal(listSemantics(at(podSpec, 'volumes')).patchStrategy, 'merge,retainKeys');
  assert.equal(listSemantics(at(podSpec, 'imagePullSecrets')).patchMergeKey, 'name');
  assert.equal(listSemantics(at(podSpec, 'tolerations')).listType, 'atomic');
  assert.equal(listSemantics(at(deployment, 'metadata', 'finalizers')).listType, 'set');
  assert.equal(listSemantics(at(deployment, 'metadata', 'ownerReferences')).patchMergeKey, 'uid');
  assert.equal(listSemantics(at(deployment, 'status', 'conditions')).patchMergeKey, 'type');
  assert.ok(isMapSchema(at(deployment, 'metadata', 'labels')));
  assert.ok(isMapSchema(at(podSpec, 'containers', '[]', 'resources', 'limits')));
  const service = findByKind('', 'v1', 'Service')?.schema;
  assert.deepEqual(listSemantics(at(service, 'spec', 'ports')).mapKeys, ['port', 'protocol']);
});

test('every field of every schema has a description', () => {
  const missing: string[] = [];
  const seen = new Set<object>();
  const walk = (node: unknown, path: string): void => {
    if (!isObject(node) || seen.has(node)) return;
    seen.add(node);
    if (isObject(node['properties'])) {
      for (const [name, child] of Object.entries(node['properties'])) {
        if (!isObject(child) || typeof child['description'] !== 'string' || child['description'] === '') missing.push(`${path}.${name}`);
        walk(child, `${path}.${name}`);
      }
    }
    walk(node['items'], `${path}[]`);
    walk(node['additionalProperties'], `${path}{}`);
  };
  for (const def of resourceDefinitions) walk(def.schema, def.kind);
  assert.deepEqual(missing, []);
});
