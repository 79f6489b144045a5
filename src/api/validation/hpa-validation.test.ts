import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findByKind } from '../registry.js';
import type { KubeObject } from '../meta.js';
import { hpaV1ToV2, hpaV2ToV1 } from '../autoscaling/hpa-conversion.js';
import { validateObject } from './index.js';

function hpa(spec: Record<string, unknown>): KubeObject {
  return {
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name: 'web', namespace: 'default' },
    spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, maxReplicas: 3, ...spec },
  };
}

/** Defaults then validates, as the server does; "field: message" lines. */
function check(object: KubeObject): string[] {
  const def = findByKind('autoscaling', 'v2', 'HorizontalPodAutoscaler');
  assert.ok(def);
  def.applyDefaults(object);
  return validateObject(def, object).map((e) => `${e.field}: ${e.message}`);
}

describe('HorizontalPodAutoscaler defaults and validation', () => {
  it("defaults minReplicas 1 and 80% CPU; a given behavior gets Kubernetes' defaults where unset", () => {
    const object = hpa({ behavior: { scaleDown: { stabilizationWindowSeconds: 5 } } });
    assert.deepEqual(check(object), []);
    const spec = object['spec'] as Record<string, unknown>;
    assert.equal(spec['minReplicas'], 1);
    assert.deepEqual(spec['metrics'], [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }]);
    assert.deepEqual(spec['behavior'], {
      scaleUp: {
        stabilizationWindowSeconds: 0,
        selectPolicy: 'Max',
        policies: [
          { type: 'Pods', value: 4, periodSeconds: 15 },
          { type: 'Percent', value: 100, periodSeconds: 15 },
        ],
      },
      scaleDown: { stabilizationWindowSeconds: 5, selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] },
    });
    // No behavior stays none (the controller applies the same defaults).
    const plain = hpa({});
    check(plain);
    assert.equal((plain['spec'] as Record<string, unknown>)['behavior'], undefined);
  });

  it('refuses bounds, targets and policies as Kubernetes does', () => {
    assert.deepEqual(check(hpa({ minReplicas: 4 })), ['spec.maxReplicas: Invalid value: 3: must be greater than or equal to `minReplicas`']);
    assert.deepEqual(check(hpa({ minReplicas: 0 })), ['spec.minReplicas: Invalid value: 0: must be greater than or equal to 1']);
    assert.deepEqual(check(hpa({ metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 0 } } }] })), [
      'spec.metrics[0].resource.target.averageUtilization: Invalid value: 0: must be greater than 0',
    ]);
    assert.deepEqual(check(hpa({ metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Value', value: '1' } } }] })), [
      'spec.metrics[0].resource.target.type: Invalid value: "Value": must be either Utilization or AverageValue',
    ]);
    assert.deepEqual(check(hpa({ metrics: [{ type: 'Resource' }] })), [
      'spec.metrics[0].resource: Required value: must populate information for the given metric source (type Resource)',
    ]);
    assert.deepEqual(check(hpa({ behavior: { scaleUp: { policies: [{ type: 'Pods', value: 0, periodSeconds: 1801 }] } } })), [
      'spec.behavior.scaleUp.policies[0].value: Invalid value: 0: must be greater than zero',
      'spec.behavior.scaleUp.policies[0].periodSeconds: Invalid value: 1801: must be less than or equal to 1800',
    ]);
    assert.deepEqual(check(hpa({ scaleTargetRef: { kind: 'Deployment', name: '' } })), ['spec.scaleTargetRef.name: Required value']);
  });

  it('converts autoscaling/v1 to v2 and back through the CPU utilization metric', () => {
    const v1: KubeObject = {
      apiVersion: 'autoscaling/v1',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'web' },
      spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, minReplicas: 1, maxReplicas: 3, targetCPUUtilizationPercentage: 50 },
    };
    const v2 = hpaV1ToV2(v1);
    assert.deepEqual((v2['spec'] as Record<string, unknown>)['metrics'], [
      { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } },
    ]);
    v2['status'] = {
      currentReplicas: 2,
      desiredReplicas: 3,
      currentMetrics: [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 120, averageValue: '120m' } } }],
    };
    const back = hpaV2ToV1(v2);
    assert.deepEqual(back['spec'], v1['spec']);
    assert.deepEqual(back['status'], { currentReplicas: 2, desiredReplicas: 3, currentCPUUtilizationPercentage: 120 });
    // What v1 cannot say (a memory metric, the behavior, conditions) travels in annotations, so
    // a v1 client's read-change-write keeps it.
    const memory = { type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '100Mi' } } };
    const cpu = { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } };
    const stored = hpa({ metrics: [cpu, memory], behavior: { scaleDown: { stabilizationWindowSeconds: 5 } } });
    stored['status'] = { currentReplicas: 1, desiredReplicas: 1, conditions: [{ type: 'AbleToScale', status: 'True' }] };
    const asV1 = hpaV2ToV1(stored);
    assert.equal(asV1.metadata.annotations?.['autoscaling.alpha.kubernetes.io/metrics'], JSON.stringify([memory]));
    (asV1['spec'] as Record<string, unknown>)['maxReplicas'] = 7;
    const roundTrip = hpaV1ToV2(asV1);
    const spec = roundTrip['spec'] as Record<string, unknown>;
    assert.deepEqual(spec['metrics'], [cpu, memory]);
    assert.deepEqual(spec['behavior'], { scaleDown: { stabilizationWindowSeconds: 5 } });
    assert.equal(spec['maxReplicas'], 7);
    assert.deepEqual((roundTrip['status'] as Record<string, unknown>)['conditions'], [{ type: 'AbleToScale', status: 'True' }]);
    assert.equal(roundTrip.metadata.annotations, undefined, 'the carried annotations are not stored');
  });
});
