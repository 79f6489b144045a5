import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../meta.js';
import { applyCrdDefaults, validateCrd } from './crd-validation.js';
import { compareVersionPriority } from './version-priority.js';
import { readJsonPath } from './json-path.js';

function crd(spec: Record<string, unknown>, name = 'widgets.shop.example.com'): KubeObject {
  const object: KubeObject = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name },
    spec: {
      group: 'shop.example.com',
      scope: 'Namespaced',
      names: { plural: 'widgets', kind: 'Widget' },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object' } } }],
      ...spec,
    },
  };
  applyCrdDefaults(object);
  return object;
}
const messages = (object: KubeObject) => validateCrd(object).map((e) => `${e.field}: ${e.message}`);

test('defaults: singular and listKind from the kind, conversion None', () => {
  const object = crd({});
  assert.deepEqual((object['spec'] as Record<string, unknown>)['names'], { plural: 'widgets', kind: 'Widget', singular: 'widget', listKind: 'WidgetList' });
  assert.deepEqual((object['spec'] as Record<string, unknown>)['conversion'], { strategy: 'None' });
  assert.deepEqual(messages(object), []);
});

test('name, group, scope, names and versions as Kubernetes validates them', () => {
  assert.deepEqual(messages(crd({}, 'widgets.other.com')), ['metadata.name: Invalid value: "widgets.other.com": must be spec.names.plural+"."+spec.group']);
  assert.deepEqual(messages(crd({ group: 'shop' }, 'widgets.shop')), ['spec.group: Invalid value: "shop": should be a domain with at least one dot']);
  assert.deepEqual(messages(crd({ scope: 'Global' })), ['spec.scope: Unsupported value: "Global": supported values: "Cluster", "Namespaced"']);
  assert.deepEqual(
    messages(crd({ names: { plural: 'widgets', kind: 'Widget', listKind: 'Widget', shortNames: ['W'] } })).map((m) => m.split(':')[0]),
    ['spec.names.listKind', 'spec.names.shortNames[0]'],
  );
  const two = [
    { name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object' } } },
    { name: 'v1', served: false, storage: true, schema: { openAPIV3Schema: { type: 'object' } } },
  ];
  assert.deepEqual(
    messages(crd({ versions: two })).map((m) => m.replace(/: Invalid value: .*: /, ': ')),
    ['spec.versions[1].name: must be unique', 'spec.versions: must have exactly one version marked as storage version'],
  );
  assert.deepEqual(messages(crd({ versions: [] })), ['spec.versions: Required value: must have at least one version']);
  assert.deepEqual(messages(crd({ conversion: { strategy: 'Webhook' } })), [
    'spec.conversion.strategy: Forbidden: conversion webhooks are not supported by this server: use strategy None (versions that differ only in apiVersion)',
  ]);
});

test('subresource paths and printer columns', () => {
  const version = {
    name: 'v1',
    served: true,
    storage: true,
    schema: { openAPIV3Schema: { type: 'object' } },
    subresources: { scale: { specReplicasPath: '.status.replicas', statusReplicasPath: '.status.replicas' } },
    additionalPrinterColumns: [{ name: 'X', type: 'map', jsonPath: 'spec' }],
  };
  assert.deepEqual(
    messages(crd({ versions: [version] })).map((m) => m.split(':')[0]),
    [
      'spec.versions[0].subresources.scale.specReplicasPath',
      'spec.versions[0].additionalPrinterColumns[0].type',
      'spec.versions[0].additionalPrinterColumns[0].jsonPath',
    ],
  );
});

test('update: group and scope are immutable', () => {
  const old = crd({});
  assert.deepEqual(
    validateCrd(crd({ scope: 'Cluster' }), old).map((e) => e.field),
    ['spec.scope'],
  );
});

test('version priority: GA, then beta, then alpha, higher first; others last by name', () => {
  assert.deepEqual(['v1alpha1', 'v1', 'foo', 'v2beta1', 'v1beta2', 'v2', 'v10', 'bar'].sort(compareVersionPriority), [
    'v10',
    'v2',
    'v1',
    'v2beta1',
    'v1beta2',
    'v1alpha1',
    'bar',
    'foo',
  ]);
});

test('the JSON paths of printer columns', () => {
  const object = { spec: { replicas: 2, items: [{ name: 'a' }, { name: 'b' }] }, status: { conditions: [{ type: 'Ready', status: 'True' }] } };
  assert.deepEqual(readJsonPath(object, '.spec.replicas'), [2]);
  assert.deepEqual(readJsonPath(object, '.spec.items[*].name'), ['a', 'b']);
  assert.deepEqual(readJsonPath(object, '.spec.items[1].name'), ['b']);
  assert.deepEqual(readJsonPath(object, '.status.conditions[?(@.type=="Ready")].status'), ['True']);
  assert.deepEqual(readJsonPath(object, '.spec.missing'), []);
  assert.deepEqual(readJsonPath(object, 'spec'), []);
});

test("Kubernetes' own groups take a CRD only with the approval annotation", () => {
  const protectedCrd = crd({ group: 'widgets.k8s.io' }, 'widgets.widgets.k8s.io');
  assert.deepEqual(
    messages(protectedCrd).map((m) => m.split(':')[0]),
    ['metadata.annotations[api-approved.kubernetes.io]'],
  );
  protectedCrd.metadata.annotations = { 'api-approved.kubernetes.io': 'https://github.com/kubernetes/kubernetes/pull/1' };
  assert.deepEqual(messages(protectedCrd), []);
  // x-k8s.io is the community's, not protected.
  assert.deepEqual(messages(crd({ group: 'shop.x-k8s.io' }, 'widgets.shop.x-k8s.io')), []);
});
