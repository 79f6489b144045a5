import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findResource } from '../api/registry.js';
import { resourceForKind, resourcePath, resources } from './resources.js';

describe('resources', () => {
  it('matches the server registry', () => {
    for (const [key, ref] of Object.entries(resources)) {
      const def = findResource(ref.group, ref.version, ref.plural);
      assert.ok(def, `${key} is served`);
      assert.equal(def.namespaced, ref.namespaced, `${key} scope`);
      assert.equal(def.kind, ref.kind, `${key} kind`);
    }
  });

  it('builds Kubernetes paths', () => {
    assert.equal(resourcePath(resources.pods, 'default', 'web', 'binding'), '/api/v1/namespaces/default/pods/web/binding');
    assert.equal(resourcePath(resources.pods, undefined), '/api/v1/pods');
    assert.equal(resourcePath(resources.nodes, 'ignored', 'n1'), '/api/v1/nodes/n1');
    assert.equal(resourcePath(resources.leases, 'kube-node-lease', 'n1'), '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/n1');
    assert.equal(resourceForKind('apps/v1', 'ReplicaSet'), resources.replicasets);
  });
});
