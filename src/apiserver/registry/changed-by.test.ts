// drover.dev/changed-by: the API server names the user whose write changed a workload's spec,
// and no client can put another name there.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { findResource } from '../../api/registry.js';
import type { ResourceDefinition } from '../../api/resource.js';
import { openTestStore, type TestStore } from '../../../test/support/auth/rbac-store.js';
import { ANNOTATION_CHANGED_BY } from './changed-by.js';
import type { ObjectRegistry, WriteOptions } from './object-registry.js';

const as = (user: string, subresource?: string): WriteOptions & { force: boolean } => ({
  dryRun: false,
  fieldManager: 'test',
  fieldValidation: 'Strict',
  force: false,
  user: { username: user, groups: [] },
  ...(subresource ? { subresource } : {}),
});

describe('drover.dev/changed-by', () => {
  let t: TestStore;
  let registry: ObjectRegistry;
  let deployments: ResourceDefinition;

  before(async () => {
    t = await openTestStore(['default']);
    registry = t.registry;
    deployments = findResource('apps', 'v1', 'deployments')!;
  });
  after(() => t.close());

  const changedBy = async (name: string) => (await registry.get(deployments, 'default', name)).metadata.annotations?.[ANNOTATION_CHANGED_BY];
  const deployment = (name: string, annotations?: Record<string, string>) => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, ...(annotations ? { annotations } : {}) },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'img:1' }] } },
    },
  });

  it('names the creator, then whoever changes the spec; other writes keep the name', async () => {
    await registry.create(deployments, 'default', deployment('web', { [ANNOTATION_CHANGED_BY]: 'mallory' }), as('alice'));
    assert.equal(await changedBy('web'), 'alice', 'a client cannot choose the name');
    await registry.patch(deployments, 'default', 'web', 'merge', { metadata: { labels: { tier: 'front' } } }, as('bob'));
    assert.equal(await changedBy('web'), 'alice', 'a label is no spec change');
    await registry.patch(deployments, 'default', 'web', 'merge', { metadata: { annotations: { [ANNOTATION_CHANGED_BY]: 'mallory' } } }, as('mallory'));
    assert.equal(await changedBy('web'), 'alice', 'nor can it overwrite the name');
    await registry.patch(deployments, 'default', 'web', 'merge', { status: { replicas: 1 } }, as('controller', 'status'));
    assert.equal(await changedBy('web'), 'alice', 'a status write is no spec change');
    await registry.patch(deployments, 'default', 'web', 'merge', { spec: { template: { spec: { containers: [{ name: 'c', image: 'img:2' }] } } } }, as('bob'));
    assert.equal(await changedBy('web'), 'bob');
    const current = await registry.get(deployments, 'default', 'web');
    const { [ANNOTATION_CHANGED_BY]: _, ...others } = current.metadata.annotations ?? {};
    await registry.update(deployments, 'default', 'web', { ...current, metadata: { ...current.metadata, annotations: others } }, as('carol'));
    assert.equal(await changedBy('web'), 'bob', 'a PUT without it keeps it');
  });

  it('leaves kinds no Transaction is recorded for alone', async () => {
    const configmaps = findResource('', 'v1', 'configmaps')!;
    const created = await registry.create(configmaps, 'default', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'plain' } }, as('alice'));
    assert.equal(created.object.metadata.annotations, undefined);
  });
});
