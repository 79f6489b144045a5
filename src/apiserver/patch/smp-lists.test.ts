import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { applyStrategicMergePatch } from './strategic-merge-patch.js';
import { deployment, deploymentSchema, podSchema, rejectsAsBadRequest } from '../../../test/support/apiserver/smp-schema.js';

type Obj = Record<string, any>;

/** Patches the pod template of the fixture Deployment and returns the patched pod spec. */
function patchPodSpec(podSpecPatch: Obj, current: Obj = deployment()): Obj {
  const result = applyStrategicMergePatch(current, { spec: { template: { spec: podSpecPatch } } }, deploymentSchema) as Obj;
  return result['spec']['template']['spec'];
}

const names = (list: Obj[]): string[] => list.map((item) => item['name']);

function withContainers(containers: Obj[]): Obj {
  const object = deployment();
  object['spec'].template.spec.containers = containers;
  return object;
}

describe('strategic merge patch: lists merged by key', () => {
  it('changes the image of one of two containers and keeps everything else', () => {
    const spec = patchPodSpec({ containers: [{ name: 'sidecar', image: 'proxy:2' }] });
    const expected = deployment()['spec'].template.spec;
    expected.containers[1].image = 'proxy:2';
    assert.deepEqual(spec, expected);
  });

  it('puts a container added by kubectl patch first, as Kubernetes does', () => {
    const spec = patchPodSpec({ containers: [{ name: 'log', image: 'log:1' }] });
    assert.deepEqual(names(spec['containers']), ['log', 'app', 'sidecar']);
    assert.deepEqual(spec['containers'][0], { name: 'log', image: 'log:1' });
  });

  it('adds a container where kubectl apply puts it with $setElementOrder', () => {
    const spec = patchPodSpec({
      '$setElementOrder/containers': [{ name: 'app' }, { name: 'sidecar' }, { name: 'log' }],
      containers: [{ name: 'log', image: 'log:1' }],
    });
    assert.deepEqual(names(spec['containers']), ['app', 'sidecar', 'log']);
  });

  it('removes a container with "$patch: delete" (kubectl apply)', () => {
    const spec = patchPodSpec({
      '$setElementOrder/containers': [{ name: 'app' }],
      containers: [{ name: 'sidecar', $patch: 'delete' }],
    });
    assert.deepEqual(names(spec['containers']), ['app']);
  });

  it('deletes every item with the key and ignores unknown keys', () => {
    const current = withContainers([{ name: 'a' }, { name: 'b' }, { name: 'a', image: 'dup' }]);
    const spec = patchPodSpec(
      {
        containers: [
          { name: 'a', $patch: 'delete' },
          { name: 'zzz', $patch: 'delete' },
        ],
      },
      current,
    );
    assert.deepEqual(spec['containers'], [{ name: 'b' }]);
  });

  it('reorders with $setElementOrder alone', () => {
    const spec = patchPodSpec({ '$setElementOrder/containers': [{ name: 'sidecar' }, { name: 'app' }] });
    assert.deepEqual(names(spec['containers']), ['sidecar', 'app']);
    assert.equal(spec['containers'][1].image, 'app:1');
  });

  it('replaces the whole list for a "$patch: replace" item', () => {
    const spec = patchPodSpec({ containers: [{ name: 'only', image: 'o:1' }, { $patch: 'replace' }] });
    assert.deepEqual(spec['containers'], [{ name: 'only', image: 'o:1' }]);
  });

  it('merges a "$patch: merge" item like any other', () => {
    const spec = patchPodSpec({ containers: [{ name: 'app', image: 'app:3', $patch: 'merge' }] });
    assert.deepEqual(spec['containers'][0].image, 'app:3');
    assert.deepEqual(spec['containers'][0].env.length, 2);
  });

  it('merges ports by containerPort (a number)', () => {
    const spec = patchPodSpec({
      containers: [
        {
          name: 'app',
          '$setElementOrder/ports': [{ containerPort: 80 }, { containerPort: 443 }],
          ports: [
            { containerPort: 80, name: 'http' },
            { containerPort: 443, name: 'https' },
          ],
        },
      ],
    });
    assert.deepEqual(spec['containers'][0].ports, [
      { containerPort: 80, protocol: 'TCP', name: 'http' },
      { containerPort: 443, name: 'https' },
    ]);
  });

  it('applies a kubectl edit of env: change one, delete one, add one', () => {
    const spec = patchPodSpec({
      containers: [
        {
          name: 'app',
          '$setElementOrder/env': [{ name: 'A' }, { name: 'C' }],
          env: [
            { name: 'A', value: '10' },
            { name: 'B', $patch: 'delete' },
            { name: 'C', value: '3' },
          ],
        },
      ],
      '$setElementOrder/containers': [{ name: 'app' }, { name: 'sidecar' }],
    });
    assert.deepEqual(spec['containers'][0].env, [
      { name: 'A', value: '10' },
      { name: 'C', value: '3' },
    ]);
  });

  it('merges volumeMounts by mountPath and imagePullSecrets by name', () => {
    const current = withContainers([{ name: 'app', volumeMounts: [{ name: 'v', mountPath: '/data' }] }]);
    const spec = patchPodSpec(
      {
        containers: [{ name: 'app', volumeMounts: [{ mountPath: '/data', readOnly: true }] }],
        imagePullSecrets: [{ name: 'regcred' }],
      },
      current,
    );
    assert.deepEqual(spec['containers'][0].volumeMounts, [{ name: 'v', mountPath: '/data', readOnly: true }]);
    assert.deepEqual(spec['imagePullSecrets'], [{ name: 'regcred' }]);
  });

  it('merges ownerReferences by uid', () => {
    const current = { metadata: { ownerReferences: [{ uid: 'u1', name: 'rs-1', kind: 'ReplicaSet' }] } };
    const patch = {
      metadata: {
        ownerReferences: [
          { uid: 'u1', controller: true },
          { uid: 'u2', name: 'rs-2', kind: 'ReplicaSet' },
        ],
      },
    };
    const result = applyStrategicMergePatch(current, patch, podSchema) as Obj;
    assert.deepEqual(result['metadata'].ownerReferences, [
      { uid: 'u1', name: 'rs-1', kind: 'ReplicaSet', controller: true },
      { uid: 'u2', name: 'rs-2', kind: 'ReplicaSet' },
    ]);
  });

  it('replaces lists and ignores $setElementOrder where the schema is unknown', () => {
    const current = { spec: { items: [{ name: 'a' }, { name: 'b' }] } };
    const patch = { spec: { '$setElementOrder/items': [{ name: 'c' }], items: [{ name: 'c' }] } };
    assert.deepEqual(applyStrategicMergePatch(current, patch, undefined), { spec: { items: [{ name: 'c' }] } });
  });

  it('does not clear a merged list for [], but does for null', () => {
    assert.deepEqual(names(patchPodSpec({ containers: [] })['containers']), ['app', 'sidecar']);
    assert.equal(patchPodSpec({ volumes: null })['volumes'], undefined);
  });
});

describe('strategic merge patch: list order', () => {
  it('slots server-only items in by their live order (env example of the design)', () => {
    const live = ['ENV2', 'ENV5', 'ENV1', 'ENV3', 'ENV4'].map((name) => ({ name, value: name.toLowerCase() }));
    const current = withContainers([{ name: 'app', env: live }]);
    const spec = patchPodSpec(
      {
        containers: [
          {
            name: 'app',
            '$setElementOrder/env': [{ name: 'ENV1' }, { name: 'ENV2' }, { name: 'ENV6' }],
            env: [
              { name: 'ENV3', $patch: 'delete' },
              { name: 'ENV6', value: 'new' },
            ],
          },
        ],
      },
      current,
    );
    // Kubernetes interleaves (it does not put every server-only item first, as the design text says).
    assert.deepEqual(names(spec['containers'][0].env), ['ENV5', 'ENV1', 'ENV2', 'ENV6', 'ENV4']);
  });

  it('orders a list the server extended', () => {
    const current = withContainers(['C', 'B', 'D', 'A', 'E'].map((name) => ({ name })));
    const spec = patchPodSpec(
      {
        '$setElementOrder/containers': [{ name: 'A' }, { name: 'B' }],
        containers: [
          { name: 'A', image: 'a' },
          { name: 'B', image: 'b' },
        ],
      },
      current,
    );
    assert.deepEqual(names(spec['containers']), ['C', 'D', 'A', 'B', 'E']);
  });

  it('ignores $setElementOrder entries the list does not have', () => {
    const current = withContainers([{ name: 'A' }, { name: 'B' }]);
    const spec = patchPodSpec({ '$setElementOrder/containers': [{ name: 'C' }, { name: 'B' }, { name: 'A' }] }, current);
    assert.deepEqual(names(spec['containers']), ['B', 'A']);
  });

  it('orders a list that did not exist', () => {
    const spec = patchPodSpec({ '$setElementOrder/initContainers': [{ name: 'b' }, { name: 'a' }], initContainers: [{ name: 'b' }, { name: 'a' }] });
    assert.deepEqual(names(spec['initContainers']), ['b', 'a']);
  });

  it('rejects a patch list that does not follow $setElementOrder', () => {
    rejectsAsBadRequest(
      () => patchPodSpec({ '$setElementOrder/containers': [{ name: 'app' }, { name: 'sidecar' }], containers: [{ name: 'sidecar' }, { name: 'app' }] }),
      /do not follow the order given by spec\.template\.spec\.\$setElementOrder\/containers/,
    );
    rejectsAsBadRequest(() => patchPodSpec({ '$setElementOrder/containers': [{ name: 'app' }], containers: [{ name: 'new' }] }), /do not follow/);
    rejectsAsBadRequest(() => patchPodSpec({ '$setElementOrder/containers': ['app'] }), /must be an object with the merge key "name"/);
  });

  it('ignores $setElementOrder on a list that does not merge', () => {
    const spec = patchPodSpec({ '$setElementOrder/tolerations': [{ key: 'b' }, { key: 'a' }], tolerations: [{ key: 'a' }, { key: 'b' }] });
    assert.deepEqual(spec['tolerations'], [{ key: 'a' }, { key: 'b' }]);
  });
});

describe('strategic merge patch: lists of values and replaced lists', () => {
  it('merges finalizers as a set, patch values first', () => {
    const current = { metadata: { finalizers: ['a', 'b'] } };
    const result = applyStrategicMergePatch(current, { metadata: { finalizers: ['c', 'a', 'c'] } }, podSchema) as Obj;
    assert.deepEqual(result['metadata'].finalizers, ['c', 'a', 'b']);
  });

  it('reorders, adds and deletes values as kubectl apply does (finalizers example of the design)', () => {
    const current = { metadata: { finalizers: ['b', 'e', 'a', 'c', 'd'] } };
    const patch = { metadata: { '$setElementOrder/finalizers': ['a', 'b', 'f'], '$deleteFromPrimitiveList/finalizers': ['c'], finalizers: ['f'] } };
    const result = applyStrategicMergePatch(current, patch, podSchema) as Obj;
    assert.deepEqual(result['metadata'].finalizers, ['e', 'a', 'b', 'f', 'd']);
  });

  it('reorders values with $setElementOrder alone', () => {
    const current = { metadata: { finalizers: ['a', 'b', 'c'] } };
    const result = applyStrategicMergePatch(current, { metadata: { '$setElementOrder/finalizers': ['b', 'c', 'a'] } }, podSchema) as Obj;
    assert.deepEqual(result['metadata'].finalizers, ['b', 'c', 'a']);
  });

  it('tells the number 1 from the string "1"', () => {
    const schema = { type: 'object', properties: { v: { type: 'array', 'x-kubernetes-patch-strategy': 'merge' } } };
    assert.deepEqual(applyStrategicMergePatch({ v: [1, '2'] }, { v: ['1', 2] }, schema), { v: ['1', 2, 1, '2'] });
  });

  it('replaces lists without a merge strategy (tolerations, args)', () => {
    const spec = patchPodSpec({
      tolerations: [{ key: 'gpu', operator: 'Exists' }],
      containers: [{ name: 'sidecar', args: ['--port', '9001'] }],
    });
    assert.deepEqual(spec['tolerations'], [{ key: 'gpu', operator: 'Exists' }]);
    assert.deepEqual(spec['containers'][1].args, ['--port', '9001']);
  });

  it('rejects list items that do not fit the list', () => {
    rejectsAsBadRequest(() => patchPodSpec({ containers: [{ image: 'x' }] }), /containers\[0\]: the item has no merge key "name"/);
    rejectsAsBadRequest(() => patchPodSpec({ containers: ['app'] }), /must be objects/);
    rejectsAsBadRequest(() => patchPodSpec({ containers: [{ $patch: 'delete', image: 'x' }] }), /must carry the merge key "name"/);
    rejectsAsBadRequest(() => applyStrategicMergePatch({}, { metadata: { finalizers: [{ a: 1 }] } }, podSchema), /merges as a set of plain values/);
  });
});
