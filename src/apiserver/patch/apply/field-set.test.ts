import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FieldSet } from './field-set.js';
import { diffObjects } from './object-diff.js';
import { objectFieldSet } from './object-fields.js';
import { displayPath, keyElement } from './path-element.js';
import { deployment, deploymentSchema, podTemplate, PORT_80_FIELDS } from '../../../../test/support/apiserver/apply-schema.js';

const f = (name: string): string => `f:${name}`;

describe('FieldSet', () => {
  it('round-trips fieldsV1 with key, value and "." elements', () => {
    const fieldsV1 = {
      'f:metadata': { 'f:finalizers': { '.': {}, 'v:"a/b"': {} }, 'f:labels': { 'f:app': {} } },
      'f:spec': {
        'f:template': {
          'f:spec': {
            'f:containers': {
              'k:{"name":"web"}': {
                '.': {},
                'f:image': {},
                'f:name': {},
                'f:ports': PORT_80_FIELDS,
              },
            },
          },
        },
      },
    };
    const set = FieldSet.fromFieldsV1(fieldsV1);
    assert.deepEqual(set.toFieldsV1(), fieldsV1);
    assert.equal(JSON.stringify(set.toFieldsV1()), JSON.stringify(fieldsV1));
    assert.ok(set.has([f('metadata'), f('finalizers')]));
    assert.ok(set.has([f('metadata'), f('finalizers'), 'v:"a/b"']));
    assert.ok(!set.has([f('metadata'), f('labels')]));
  });

  it('writes key fields in name order whatever order a client sent them in', () => {
    const set = FieldSet.fromFieldsV1({ 'f:ports': { 'k:{"protocol":"TCP","containerPort":80}': {} } }, true);
    assert.deepEqual(set.toFieldsV1(), { 'f:ports': { 'k:{"containerPort":80,"protocol":"TCP"}': {} } });
    assert.equal(keyElement({ protocol: 'UDP', containerPort: 53 }), 'k:{"containerPort":53,"protocol":"UDP"}');
  });

  it('orders elements as Kubernetes does: ".", fields, keys, values', () => {
    const set = FieldSet.fromPaths([['f:l'], ['f:l', 'v:"x"'], ['f:l', 'k:{"a":1}'], ['f:l', 'f:b']]);
    assert.deepEqual(Object.keys(set.toFieldsV1()['f:l'] as object), ['.', 'f:b', 'k:{"a":1}', 'v:"x"']);
  });

  it('does union, difference, recursive difference and intersection', () => {
    const a = FieldSet.fromPaths([
      [f('spec'), f('replicas')],
      [f('spec'), f('paused')],
      [f('metadata'), f('labels'), f('app')],
    ]);
    const b = FieldSet.fromPaths([[f('spec'), f('replicas')], [f('status')]]);
    assert.deepEqual(a.union(b).toStrings(), ['.metadata.labels.app', '.spec.paused', '.spec.replicas', '.status']);
    assert.deepEqual(a.difference(b).toStrings(), ['.metadata.labels.app', '.spec.paused']);
    assert.deepEqual(a.intersection(b).toStrings(), ['.spec.replicas']);
    assert.deepEqual(a.recursiveDifference(FieldSet.fromPaths([[f('spec')]])).toStrings(), ['.metadata.labels.app']);
    assert.deepEqual(a.difference(FieldSet.fromPaths([[f('spec')]])).toStrings(), a.toStrings());
    assert.ok(a.difference(a).isEmpty());
    assert.deepEqual(a.difference(a).toFieldsV1(), {});
  });

  it('prints paths as Kubernetes does in conflicts', () => {
    assert.equal(displayPath([f('spec'), f('containers'), 'k:{"name":"web"}', f('image')]), '.spec.containers[name="web"].image');
    assert.equal(displayPath([f('ports'), 'k:{"containerPort":80,"protocol":"TCP"}']), '.ports[containerPort=80,protocol="TCP"]');
    assert.equal(displayPath([f('metadata'), f('finalizers'), 'v:"x"']), '.metadata.finalizers[="x"]');
  });
});

describe('objectFieldSet', () => {
  it('lists leaves per schema and leaves out identity, bookkeeping and status', () => {
    const object = deployment({
      replicas: 2,
      selector: { matchLabels: { app: 'web' } },
      template: podTemplate([{ name: 'web', image: 'nginx', args: ['-g', 'daemon off;'], ports: [{ containerPort: 80 }] }]),
    });
    object.metadata.finalizers = ['x'];
    object.metadata.resourceVersion = '7';
    object['status'] = { replicas: 2 };
    assert.deepEqual(objectFieldSet(object, deploymentSchema, {}).toFieldsV1(), {
      'f:metadata': { 'f:finalizers': { 'v:"x"': {} }, 'f:labels': { 'f:app': {} } },
      'f:spec': {
        'f:replicas': {},
        'f:selector': {},
        'f:template': {
          'f:metadata': { 'f:labels': { 'f:app': {} } },
          'f:spec': {
            'f:containers': {
              'k:{"name":"web"}': {
                '.': {},
                'f:args': {},
                'f:image': {},
                'f:name': {},
                'f:ports': PORT_80_FIELDS,
              },
            },
          },
        },
      },
    });
    assert.deepEqual(objectFieldSet(object, deploymentSchema, { subresource: 'status' }).toStrings(), [
      '.metadata.finalizers[="x"]',
      '.metadata.labels.app',
      '.status.replicas',
    ]);
  });

  it('treats objects of unknown schema as granular and their lists as atomic', () => {
    const object = { apiVersion: 'x/v1', kind: 'X', metadata: {}, spec: { a: { b: 1 }, list: [{ name: 'n' }], empty: {} } };
    assert.deepEqual(objectFieldSet(object, {}, {}).toStrings(), ['.spec.a.b', '.spec.empty', '.spec.list']);
  });
});

describe('diffObjects', () => {
  it('reports changed leaves and the roots of removed subtrees', () => {
    const before = deployment({
      replicas: 1,
      template: podTemplate([
        { name: 'a', image: 'x:1' },
        { name: 'b', image: 'y:1' },
      ]),
    });
    const after = deployment(
      {
        replicas: 1,
        template: podTemplate([
          { name: 'a', image: 'x:2' },
          { name: 'c', image: 'z:1' },
        ]),
      },
      { app: 'web', tier: 'fe' },
    );
    const { changed, removed } = diffObjects(before, after, deploymentSchema, {});
    assert.deepEqual(changed.toStrings(), [
      '.metadata.labels.tier',
      '.spec.template.spec.containers[name="a"].image',
      '.spec.template.spec.containers[name="c"]',
      '.spec.template.spec.containers[name="c"].image',
      '.spec.template.spec.containers[name="c"].name',
    ]);
    assert.deepEqual(removed.toStrings(), ['.spec.template.spec.containers[name="b"]']);
  });

  it('sees no change when only untracked fields or list order change', () => {
    const before = deployment({
      template: podTemplate([
        { name: 'a', image: 'x' },
        { name: 'b', image: 'y' },
      ]),
    });
    const after = deployment({
      template: podTemplate([
        { name: 'b', image: 'y' },
        { name: 'a', image: 'x' },
      ]),
    });
    after.metadata.resourceVersion = '9';
    after['status'] = { replicas: 3 };
    const { changed, removed } = diffObjects(before, after, deploymentSchema, {});
    assert.ok(changed.isEmpty() && removed.isEmpty());
  });
});
