import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { JsonSchema } from '../../api/schema-nav.js';
import { applyStrategicMergePatch } from './strategic-merge-patch.js';
import { deepFreeze, deployment, deploymentSchema, podSchema, rejectsAsBadRequest } from '../../../test/support/apiserver/smp-schema.js';

type Obj = Record<string, any>;

const patchDeployment = (patch: unknown, current: Obj = deployment()): Obj => applyStrategicMergePatch(current, patch, deploymentSchema) as Obj;
const podTemplate = (object: Obj): Obj => object['spec']['template']['spec'];

describe('strategic merge patch: maps and scalars', () => {
  it('scales (kubectl scale / patch -p {"spec":{"replicas":5}})', () => {
    const result = patchDeployment({ spec: { replicas: 5 } });
    const expected = deployment();
    expected['spec'].replicas = 5;
    assert.deepEqual(result, expected);
  });

  it('adds, changes and deletes labels as kubectl label does', () => {
    const result = patchDeployment({ metadata: { labels: { tier: null, team: 'blue', app: 'web2' } } });
    assert.deepEqual(result['metadata'].labels, { app: 'web2', team: 'blue' });
  });

  it('ignores null for a field that does not exist', () => {
    const result = patchDeployment({ metadata: { annotations: null, labels: { nope: null } } });
    assert.deepEqual(result, deployment());
  });

  it('"$patch: replace" in a map takes the map as given', () => {
    const result = patchDeployment({ metadata: { labels: { $patch: 'replace', owner: 'ops' } } });
    assert.deepEqual(result['metadata'].labels, { owner: 'ops' });
    assert.equal(result['metadata'].name, 'web');
  });

  it('"$patch: delete" in a map deletes it', () => {
    const result = patchDeployment({ spec: { strategy: { rollingUpdate: { $patch: 'delete' } } } });
    assert.deepEqual(result['spec'].strategy, { type: 'RollingUpdate' });
  });

  it('"$patch: merge" in a map is the default merge', () => {
    const result = patchDeployment({ metadata: { labels: { $patch: 'merge', owner: 'ops' } } });
    assert.deepEqual(result['metadata'].labels, { app: 'web', tier: 'front', owner: 'ops' });
  });

  it('merges where the schema is unknown like a JSON merge patch', () => {
    const current = { spec: { config: { a: 1, b: { c: 2 } }, list: [{ name: 'x', v: 1 }] } };
    const patch = { spec: { config: { a: null, b: { d: 3 } }, list: [{ name: 'y' }] } };
    assert.deepEqual(applyStrategicMergePatch(current, patch, undefined), { spec: { config: { b: { c: 2, d: 3 } }, list: [{ name: 'y' }] } });
  });

  it('replaces a map whose field has patch strategy "replace"', () => {
    const schema: JsonSchema = {
      type: 'object',
      properties: { data: { type: 'object', additionalProperties: { type: 'string' }, 'x-kubernetes-patch-strategy': 'replace' } },
    };
    assert.deepEqual(applyStrategicMergePatch({ data: { a: '1', b: '2' } }, { data: { c: '3' } }, schema), { data: { c: '3' } });
  });

  it('lets a value change type', () => {
    assert.deepEqual(applyStrategicMergePatch({ a: { b: 1 }, c: [1], d: 'x' }, { a: 'flat', c: { k: 1 }, d: [1] }, undefined), {
      a: 'flat',
      c: { k: 1 },
      d: [1],
    });
  });

  it('leaves no directive or null inside the values it adds', () => {
    const current = { metadata: { name: 'p' } };
    const patch = {
      spec: {
        containers: [
          {
            name: 'a',
            image: 'a:1',
            env: [
              { name: 'X', value: '1', valueFrom: null },
              { name: 'Y', $patch: 'delete' },
            ],
          },
        ],
        '$setElementOrder/volumes': [{ name: 'v' }],
        volumes: [{ name: 'v', emptyDir: { $patch: 'replace', medium: 'Memory' } }],
        tolerations: [{ key: 'k', value: null }],
      },
      metadata: { labels: { $patch: 'replace', a: '1', b: null } },
    };
    assert.deepEqual(applyStrategicMergePatch(current, patch, podSchema), {
      metadata: { name: 'p', labels: { a: '1' } },
      spec: {
        containers: [{ name: 'a', image: 'a:1', env: [{ name: 'X', value: '1' }] }],
        volumes: [{ name: 'v', emptyDir: { medium: 'Memory' } }],
        tolerations: [{ key: 'k' }],
      },
    });
  });

  it('never changes its inputs, and shares nothing with them', () => {
    const current = deepFreeze(deployment());
    const patch = deepFreeze({
      spec: {
        template: {
          spec: {
            containers: [
              { name: 'app', image: 'app:2' },
              { name: 'new', image: 'n:1' },
            ],
          },
        },
      },
    });
    const result = patchDeployment(patch, current);
    assert.equal(podTemplate(result).containers.length, 3);
    assert.notEqual(podTemplate(result).containers[0], patch.spec.template.spec.containers[1]);
    assert.notEqual(result['metadata'], current['metadata']);
  });

  it('treats "__proto__" as an ordinary label', () => {
    const patch = JSON.parse('{"metadata":{"labels":{"__proto__":"x"}}}') as unknown;
    const result = patchDeployment(patch);
    assert.equal(Object.getPrototypeOf(result['metadata'].labels), Object.prototype);
    assert.ok(Object.keys(result['metadata'].labels).includes('__proto__'));
  });
});

describe('strategic merge patch: $retainKeys', () => {
  it('switches a Deployment from RollingUpdate to Recreate', () => {
    const result = patchDeployment({ spec: { strategy: { $retainKeys: ['type'], type: 'Recreate' } } });
    assert.deepEqual(result['spec'].strategy, { type: 'Recreate' });
  });

  it('accepts the null kubectl apply sends alongside $retainKeys', () => {
    const result = patchDeployment({ spec: { strategy: { $retainKeys: ['type'], rollingUpdate: null, type: 'Recreate' } } });
    assert.deepEqual(result['spec'].strategy, { type: 'Recreate' });
  });

  it('merges the retained fields', () => {
    const result = patchDeployment({ spec: { strategy: { $retainKeys: ['rollingUpdate', 'type'], rollingUpdate: { maxSurge: 1 } } } });
    assert.deepEqual(result['spec'].strategy, { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: '25%' } });
  });

  it('switches the source of a volume (merge,retainKeys list)', () => {
    const patch = { spec: { template: { spec: { volumes: [{ $retainKeys: ['hostPath', 'name'], name: 'cache', hostPath: { path: '/tmp' } }] } } } };
    assert.deepEqual(podTemplate(patchDeployment(patch)).volumes, [{ name: 'cache', hostPath: { path: '/tmp' } }]);
  });

  it('rejects a patch that sets a field its $retainKeys leaves out, or a malformed list', () => {
    rejectsAsBadRequest(
      () => patchDeployment({ spec: { strategy: { $retainKeys: ['type'], type: 'Recreate', rollingUpdate: {} } } }),
      /spec\.strategy: the patch sets "rollingUpdate"/,
    );
    rejectsAsBadRequest(() => patchDeployment({ spec: { strategy: { $retainKeys: 'type' } } }), /\$retainKeys must be a list/);
    rejectsAsBadRequest(() => patchDeployment({ spec: { strategy: { $retainKeys: [1] } } }));
  });
});

describe('strategic merge patch: $deleteFromPrimitiveList', () => {
  it('removes finalizers', () => {
    const result = patchDeployment({ metadata: { '$deleteFromPrimitiveList/finalizers': ['a'] } });
    assert.deepEqual(result['metadata'].finalizers, ['b']);
  });

  it('removes every copy, ignores absent values and absent lists', () => {
    const current = { metadata: { finalizers: ['x', 'y', 'x', 'z'] } };
    const patch = { metadata: { '$deleteFromPrimitiveList/finalizers': ['x', 'nope'], '$deleteFromPrimitiveList/other': ['q'] } };
    assert.deepEqual(applyStrategicMergePatch(current, patch, podSchema), { metadata: { finalizers: ['y', 'z'] } });
  });

  it('adds and removes in one patch, as kubectl apply does', () => {
    const result = patchDeployment({ metadata: { '$deleteFromPrimitiveList/finalizers': ['a'], finalizers: ['c'] } });
    assert.deepEqual(result['metadata'].finalizers, ['c', 'b']);
  });

  it('rejects a value that is not a list and a directive without a field', () => {
    rejectsAsBadRequest(() => patchDeployment({ metadata: { '$deleteFromPrimitiveList/finalizers': 'a' } }), /must be a list/);
    rejectsAsBadRequest(() => patchDeployment({ metadata: { '$deleteFromPrimitiveList/': ['a'] } }), /malformed directive/);
    rejectsAsBadRequest(() => patchDeployment({ metadata: { $deleteFromPrimitiveList: ['a'] } }), /malformed directive/);
  });
});

describe('strategic merge patch: malformed patches', () => {
  it('requires a JSON object', () => {
    rejectsAsBadRequest(() => applyStrategicMergePatch({}, [], deploymentSchema), /must be a JSON object/);
    rejectsAsBadRequest(() => applyStrategicMergePatch({}, 'x', deploymentSchema));
  });

  it('rejects unknown $patch values in maps and list items', () => {
    rejectsAsBadRequest(() => patchDeployment({ metadata: { labels: { $patch: 'nuke' } } }), /metadata\.labels: unknown \$patch directive "nuke"/);
    rejectsAsBadRequest(() => patchDeployment({ $patch: 7 }), /the patch: unknown \$patch directive 7/);
    rejectsAsBadRequest(
      () => patchDeployment({ spec: { template: { spec: { containers: [{ name: 'app', $patch: 'drop' }] } } } }),
      /containers\[0\]: unknown \$patch/,
    );
  });

  it('rejects malformed $setElementOrder directives', () => {
    rejectsAsBadRequest(() => patchDeployment({ metadata: { $setElementOrder: ['a'] } }), /malformed directive/);
    rejectsAsBadRequest(() => patchDeployment({ metadata: { '$setElementOrder/finalizers': 'a' } }), /must be a list/);
  });
});
