import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { openApiV2, openApiV2Protobuf, openApiV3ForGroupVersion, openApiV3Index, openApiV3Serialized } from './index.js';

type Node = Record<string, any>;

const apps = openApiV3ForGroupVersion('apis/apps/v1') as Node;
const core = openApiV3ForGroupVersion('api/v1') as Node;

/** Follows allOf/$ref the way kubectl explain does. */
function resolve(doc: Node, node: Node): Node {
  const inner = node['allOf']?.[0] ?? node;
  const ref: string | undefined = inner['$ref'];
  return ref ? doc['components']['schemas'][ref.split('/').pop() as string] : node;
}

test('the v3 index lists every group/version with a hashed URL', () => {
  const index = openApiV3Index();
  assert.deepEqual(Object.keys(index.paths).sort(), [
    'api/v1',
    'apis/apiextensions.k8s.io/v1',
    'apis/apps/v1',
    'apis/authentication.k8s.io/v1',
    'apis/authorization.k8s.io/v1',
    'apis/autoscaling/v1',
    'apis/autoscaling/v2',
    'apis/batch/v1',
    'apis/certificates.k8s.io/v1',
    'apis/coordination.k8s.io/v1',
    'apis/discovery.k8s.io/v1',
    'apis/drover.dev/v1',
    'apis/events.k8s.io/v1',
    'apis/kubeflow.org/v1',
    'apis/policy/v1',
    'apis/rbac.authorization.k8s.io/v1',
    'apis/scheduling.k8s.io/v1',
    'apis/scheduling.x-k8s.io/v1alpha1',
    'apis/storage.k8s.io/v1',
  ]);
  const serialized = openApiV3Serialized('apis/apps/v1');
  assert.ok(serialized);
  const hash = createHash('sha256').update(serialized.json).digest('hex').toUpperCase();
  assert.equal(index.paths['apis/apps/v1']?.serverRelativeURL, `/openapi/v3/apis/apps/v1?hash=${hash}`);
  assert.equal(openApiV3ForGroupVersion('apis/nothing/v1'), undefined);
});

test('apps/v1: deployments PATCH carries fieldValidation and the GVK (kubectl server-side validation)', () => {
  const patch = apps['paths']['/apis/apps/v1/namespaces/{namespace}/deployments/{name}']['patch'];
  assert.deepEqual(patch['x-kubernetes-group-version-kind'], { group: 'apps', kind: 'Deployment', version: 'v1' });
  const names = patch['parameters'].map((p: Node) => p['name']);
  assert.ok(names.includes('fieldValidation'));
  assert.ok(names.includes('dryRun'));
  assert.ok('application/strategic-merge-patch+json' in patch['requestBody']['content']);
  // Every PATCH operation for the kind must agree, whichever one kubectl happens to look at first.
  for (const [path, item] of Object.entries(apps['paths'] as Record<string, Node>)) {
    const op = item['patch'];
    if (op)
      assert.ok(
        op['parameters'].some((p: Node) => p['name'] === 'fieldValidation'),
        path,
      );
  }
});

test('apps/v1: the Deployment schema is found by GVK and explains spec.replicas', () => {
  const schemas = apps['components']['schemas'] as Record<string, Node>;
  const gvk = { group: 'apps', kind: 'Deployment', version: 'v1' };
  const matches = Object.values(schemas).filter((s) =>
    (s['x-kubernetes-group-version-kind'] ?? []).some((g: Node) => JSON.stringify(g) === JSON.stringify(gvk)),
  );
  assert.equal(matches.length, 1);
  const spec = resolve(apps, (matches[0] as Node)['properties']['spec']);
  const replicas = spec['properties']['replicas'];
  assert.equal(replicas['type'], 'integer');
  assert.match(replicas['description'], /desired pods/);
  // explain's lookup: the operations under the plural path carry the same GVK.
  const list = apps['paths']['/apis/apps/v1/namespaces/{namespace}/deployments']['get'];
  assert.deepEqual(list['x-kubernetes-group-version-kind'], gvk);
});

test('api/v1: pods have status, binding and eviction operations', () => {
  const paths = core['paths'] as Record<string, Node>;
  assert.ok(paths['/api/v1/namespaces/{namespace}/pods/{name}/status']?.['patch']);
  assert.deepEqual(paths['/api/v1/namespaces/{namespace}/pods/{name}/binding']?.['post']['x-kubernetes-group-version-kind'], {
    group: '',
    kind: 'Binding',
    version: 'v1',
  });
  assert.deepEqual(paths['/api/v1/namespaces/{namespace}/pods/{name}/eviction']?.['post']['x-kubernetes-group-version-kind'], {
    group: 'policy',
    kind: 'Eviction',
    version: 'v1',
  });
  assert.ok(paths['/api/v1/nodes/{name}']?.['get'], 'cluster-scoped paths have no namespace');
  assert.equal(paths['/api/v1/namespaces']?.['delete'], undefined, 'namespaces have no deletecollection');
  assert.ok(core['components']['schemas']['io.k8s.api.core.v1.PodSpec']);
});

test('v2 document: swagger 2.0 with GVK-tagged definitions', () => {
  const doc = openApiV2() as Node;
  assert.equal(doc['swagger'], '2.0');
  const deployment = doc['definitions']['io.k8s.api.apps.v1.Deployment'];
  assert.deepEqual(deployment['x-kubernetes-group-version-kind'], [{ group: 'apps', kind: 'Deployment', version: 'v1' }]);
  assert.equal(deployment['properties']['spec']['$ref'], '#/definitions/io.k8s.api.apps.v1.DeploymentSpec');
  const patch = doc['paths']['/apis/apps/v1/namespaces/{namespace}/deployments/{name}']['patch'];
  assert.ok(patch['consumes'].includes('application/strategic-merge-patch+json'));
  assert.ok(patch['parameters'].some((p: Node) => p['name'] === 'fieldValidation'));
  assert.deepEqual(doc['definitions']['io.k8s.apimachinery.pkg.util.intstr.IntOrString']['type'], 'string');
  const text = JSON.stringify(doc);
  assert.ok(!text.includes('x-drover-'), 'internal keys are not published');
  assert.ok(!text.includes('"anyOf"'), 'swagger 2.0 has no anyOf');
});

/** Reads the top-level fields of a protobuf message: field number → raw length-delimited payloads. */
function topLevelFields(data: Buffer): Map<number, Buffer[]> {
  const fields = new Map<number, Buffer[]>();
  let at = 0;
  const varint = (): number => {
    let value = 0;
    let scale = 1;
    for (;;) {
      const byte = data[at++] ?? 0;
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 128;
    }
  };
  while (at < data.length) {
    const key = varint();
    assert.equal(key % 8, 2, 'the document only has length-delimited fields');
    const length = varint();
    fields.set(Math.floor(key / 8), [...(fields.get(Math.floor(key / 8)) ?? []), data.subarray(at, at + length)]);
    at += length;
  }
  return fields;
}

test('v2 protobuf: gnostic Document with swagger, info, paths and definitions', () => {
  const { body, hash } = openApiV2Protobuf();
  assert.match(hash, /^[0-9A-F]{64}$/);
  const fields = topLevelFields(body);
  assert.equal(fields.get(1)?.[0]?.toString(), '2.0');
  const definitions = topLevelFields(fields.get(9)?.[0] ?? Buffer.alloc(0)).get(1) ?? [];
  const v2 = openApiV2() as Node;
  assert.equal(definitions.length, Object.keys(v2['definitions']).length);
  const first = topLevelFields(definitions[0] ?? Buffer.alloc(0));
  assert.equal(first.get(1)?.[0]?.toString(), Object.keys(v2['definitions'])[0]);
  assert.ok(fields.get(8)?.[0]?.includes('/apis/apps/v1/namespaces/{namespace}/deployments/{name}'));
});
