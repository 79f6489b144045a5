import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../api/meta.js';
import { isFinished } from './cleaner.js';

const HOUR = 60 * 60 * 1000;
const now = Date.parse('2026-11-25T12:00:00Z');
const at = (msAgo: number) => new Date(now - msAgo).toISOString();

function csr(createdMsAgo: number, conditions: Array<{ type: string; msAgo: number }> = []): KubeObject {
  return {
    apiVersion: 'certificates.k8s.io/v1',
    kind: 'CertificateSigningRequest',
    metadata: { name: 'n', creationTimestamp: at(createdMsAgo) },
    status: { conditions: conditions.map((c) => ({ type: c.type, status: 'True', lastUpdateTime: at(c.msAgo) })) },
  };
}

describe('csr cleaner', () => {
  it('keeps a decided request for an hour after its decision, as kube-controller-manager does', () => {
    assert.equal(isFinished(csr(3 * HOUR, [{ type: 'Approved', msAgo: 0.5 * HOUR }]), now), false);
    assert.equal(isFinished(csr(3 * HOUR, [{ type: 'Approved', msAgo: 1.5 * HOUR }]), now), true);
    assert.equal(isFinished(csr(3 * HOUR, [{ type: 'Denied', msAgo: 2 * HOUR }]), now), true);
    assert.equal(isFinished(csr(3 * HOUR, [{ type: 'Failed', msAgo: 2 * HOUR }]), now), true);
  });

  it('keeps a pending request for a day', () => {
    assert.equal(isFinished(csr(23 * HOUR), now), false);
    assert.equal(isFinished(csr(25 * HOUR), now), true);
  });
});
