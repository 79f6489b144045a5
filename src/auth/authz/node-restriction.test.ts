// NodeRestriction for volumes: an agent may lift the local-path cleanup finalizer of a volume of
// its node, and change nothing else.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../api/meta.js';
import { findResource } from '../../api/registry.js';
import type { AdmissionRequest } from '../../apiserver/admission/validating-admission.js';
import { nodeSubject } from '../components.js';
import { nodeRestriction } from './node-restriction.js';

const volumes = findResource('', 'v1', 'persistentvolumes')!;
const subject = nodeSubject('node-a');
const user = { username: subject.commonName, groups: [...subject.organizations!] };

function volume(finalizers: string[], path = '/d/pvc-1'): KubeObject {
  return { apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'pvc-1', resourceVersion: '5', finalizers }, spec: { hostPath: { path } } };
}

function update(object: KubeObject, old: KubeObject): AdmissionRequest {
  return { operation: 'update', def: volumes, object, old, user, auditAnnotations: {} };
}

describe('node restriction: persistent volumes', () => {
  const both = ['drover.io/local-path-directory', 'kubernetes.io/pv-protection'];

  it('lets a node lift the cleanup finalizer', async () => {
    assert.deepEqual(await nodeRestriction.validate(update(volume(['kubernetes.io/pv-protection']), volume(both))), []);
  });

  it('refuses any other change', async () => {
    await assert.rejects(
      async () => nodeRestriction.validate(update(volume(['drover.io/local-path-directory']), volume(both))),
      /may only remove the drover.io\/local-path-directory finalizer/,
    );
    await assert.rejects(async () => nodeRestriction.validate(update(volume(['kubernetes.io/pv-protection'], '/etc'), volume(both))), /may only remove/);
    await assert.rejects(async () => nodeRestriction.validate(update(volume([...both, 'x.io/more']), volume(both))), /may only remove/);
    await assert.rejects(
      async () => nodeRestriction.validate({ operation: 'create', def: volumes, object: volume([]), user, auditAnnotations: {} }),
      /may not create persistentvolumes/,
    );
  });
});
