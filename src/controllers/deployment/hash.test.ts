import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PodTemplateSpec } from '../../api/core/index.js';
import { equalIgnoreHash, podTemplateHash } from './hash.js';

const template = (image: string, extra: Record<string, string> = {}) => ({
  metadata: { labels: { app: 'web', ...extra } },
  spec: { containers: [{ name: 'main', image }], restartPolicy: 'Always' as const },
});

describe('pod-template-hash', () => {
  it('is stable for equal templates, whatever the key order or the hash label', () => {
    const a = template('busybox:1');
    const b = {
      spec: { restartPolicy: 'Always' as const, containers: [{ image: 'busybox:1', name: 'main' }] },
      metadata: { labels: { 'pod-template-hash': 'xyz', app: 'web' } },
    };
    assert.equal(podTemplateHash(a), podTemplateHash(b));
    assert.ok(equalIgnoreHash(a, b));
    assert.match(podTemplateHash(a), /^[bcdfghjklmnpqrstvwxz2456789]{1,10}$/);
    // What kubectl rollout undo sends back: the same template with `creationTimestamp: null`.
    const echoed: PodTemplateSpec = JSON.parse(
      JSON.stringify({ ...a, metadata: { ...a.metadata, creationTimestamp: null }, spec: { ...a.spec, volumes: [], securityContext: {} } }),
    );
    assert.ok(equalIgnoreHash(a, echoed));
    assert.equal(podTemplateHash(a), podTemplateHash(echoed));
  });

  it('changes with the template and with the collision count', () => {
    const a = template('busybox:1');
    assert.notEqual(podTemplateHash(a), podTemplateHash(template('busybox:2')));
    assert.notEqual(podTemplateHash(a), podTemplateHash(a, 1));
    assert.notEqual(podTemplateHash(a, 1), podTemplateHash(a, 2));
    assert.equal(podTemplateHash(a, 0), podTemplateHash(structuredClone(a), 0));
    assert.ok(!equalIgnoreHash(a, template('busybox:1', { tier: 'x' })));
  });
});
