import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { KubeObject } from '../../api/meta.js';
import { applyLimitRangeDefaults as defaultLimitRange } from '../../api/defaults/quota-defaults.js';
import { applyLimitRangeDefaults, LIMIT_RANGER_ANNOTATION, limitRangeViolations } from './limit-ranger.js';

function limitRange(...limits: Record<string, unknown>[]): KubeObject {
  const object = { apiVersion: 'v1', kind: 'LimitRange', metadata: { name: 'lr', namespace: 'dev' }, spec: { limits } } as KubeObject;
  defaultLimitRange(object);
  return object;
}

function pod(containers: Record<string, unknown>[], initContainers: Record<string, unknown>[] = []): KubeObject {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'dev' }, spec: { containers, initContainers } } as KubeObject;
}

describe('LimitRange defaulting', () => {
  test('default comes from max, defaultRequest from default, then from min', () => {
    const lr = limitRange({ type: 'Container', max: { cpu: '1' }, min: { memory: '64Mi' } });
    assert.deepEqual((lr['spec'] as any).limits[0].default, { cpu: '1' });
    assert.deepEqual((lr['spec'] as any).limits[0].defaultRequest, { cpu: '1', memory: '64Mi' });
  });

  test('Pod items get no defaults', () => {
    const lr = limitRange({ type: 'Pod', max: { cpu: '2' } });
    assert.equal((lr['spec'] as any).limits[0].default, undefined);
  });
});

describe('LimitRanger admission', () => {
  test('fills what containers and init containers leave out, and says so in the annotation', () => {
    const lr = limitRange({ type: 'Container', default: { cpu: '500m', memory: '256Mi' }, defaultRequest: { cpu: '100m' } });
    const p = pod([{ name: 'app', resources: { limits: { memory: '1Gi' }, requests: { memory: '1Gi' } } }, { name: 'side' }], [{ name: 'init' }]);
    applyLimitRangeDefaults(p, [lr]);
    const spec = p['spec'] as any;
    assert.deepEqual(spec.containers[0].resources, { limits: { memory: '1Gi', cpu: '500m' }, requests: { memory: '1Gi', cpu: '100m' } });
    assert.deepEqual(spec.containers[1].resources, { limits: { cpu: '500m', memory: '256Mi' }, requests: { cpu: '100m', memory: '256Mi' } });
    assert.equal(
      p.metadata.annotations?.[LIMIT_RANGER_ANNOTATION],
      'LimitRanger plugin set: cpu request for container app; cpu limit for container app; ' +
        'cpu, memory request for container side; cpu, memory limit for container side; ' +
        'cpu, memory request for init container init; cpu, memory limit for init container init',
    );
  });

  test('a pod that sets everything gets no annotation', () => {
    const p = pod([{ name: 'app', resources: { limits: { cpu: '1' }, requests: { cpu: '1' } } }]);
    applyLimitRangeDefaults(p, [limitRange({ type: 'Container', default: { cpu: '1' } })]);
    assert.equal(p.metadata.annotations, undefined);
  });

  test("min, max and ratio refusals read as Kubernetes' messages", () => {
    const lr = limitRange({ type: 'Container', min: { cpu: '100m' }, max: { cpu: '500m', memory: '1Gi' }, maxLimitRequestRatio: { memory: '2' } });
    assert.deepEqual(
      limitRangeViolations(pod([{ name: 'a', resources: { limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '200m', memory: '512Mi' } } }]), [lr]),
      ['maximum cpu usage per Container is 500m, but limit is 1'],
    );
    assert.deepEqual(
      limitRangeViolations(pod([{ name: 'a', resources: { limits: { cpu: '500m', memory: '1Gi' }, requests: { cpu: '50m', memory: '256Mi' } } }]), [lr]),
      ['minimum cpu usage per Container is 100m, but request is 50m', 'memory max limit to request ratio per Container is 2, but provided ratio is 4.000000'],
    );
    assert.deepEqual(limitRangeViolations(pod([{ name: 'a' }]), [lr]), [
      'minimum cpu usage per Container is 100m.  No request is specified',
      'maximum cpu usage per Container is 500m.  No limit is specified',
      'maximum memory usage per Container is 1Gi.  No limit is specified',
      'memory max limit to request ratio per Container is 2, but no request is specified or request is 0',
    ]);
  });

  test('a Pod item bounds the sum of the containers', () => {
    const lr = limitRange({ type: 'Pod', max: { cpu: '1' } });
    const resources = { limits: { cpu: '600m' }, requests: { cpu: '600m' } };
    assert.deepEqual(
      limitRangeViolations(
        pod([
          { name: 'a', resources },
          { name: 'b', resources },
        ]),
        [lr],
      ),
      ['maximum cpu usage per Pod is 1, but limit is 1200m'],
    );
    assert.deepEqual(limitRangeViolations(pod([{ name: 'a', resources }]), [lr]), []);
  });
});
