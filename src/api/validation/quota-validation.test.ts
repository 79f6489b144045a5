import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { KubeObject } from '../meta.js';
import { validateLimitRange, validateResourceQuota } from './quota-validation.js';

const quota = (spec: Record<string, unknown>) => ({ apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'q' }, spec }) as KubeObject;
const limitRange = (...limits: Record<string, unknown>[]) =>
  ({ apiVersion: 'v1', kind: 'LimitRange', metadata: { name: 'l' }, spec: { limits } }) as KubeObject;
const messages = (errors: { field: string; message: string }[]) => errors.map((e) => `${e.field}: ${e.message}`);

describe('quota validation', () => {
  test('accepts compute, counts and extended resources', () => {
    assert.deepEqual(
      validateResourceQuota(quota({ hard: { pods: '2', 'requests.cpu': '1', 'count/deployments.apps': '3', 'requests.nvidia.com/gpu': '4' } })),
      [],
    );
  });

  test('refuses negative or malformed quantities, conflicting scopes, resources a scope cannot count', () => {
    assert.deepEqual(messages(validateResourceQuota(quota({ hard: { pods: '-1', cpu: 'lots' } }))), [
      'spec.hard[pods]: Invalid value: "-1": must be greater than or equal to 0',
      'spec.hard[cpu]: Invalid value: "lots": must be a valid quantity, e.g. 500m or 1Gi',
    ]);
    assert.equal(validateResourceQuota(quota({ hard: { pods: '1' }, scopes: ['BestEffort', 'NotBestEffort'] })).length, 1);
    assert.deepEqual(messages(validateResourceQuota(quota({ hard: { cpu: '1' }, scopes: ['BestEffort'] }))), [
      'spec.hard[cpu]: Invalid value: "cpu": unsupported scope applied to resource',
    ]);
    assert.deepEqual(validateResourceQuota(quota({ hard: { 'requests.cpu': '1' }, scopes: ['NotBestEffort', 'Terminating'] })), []);
  });

  test('LimitRange bounds must be in order', () => {
    assert.deepEqual(validateLimitRange(limitRange({ type: 'Container', min: { cpu: '100m' }, max: { cpu: '1' }, default: { cpu: '500m' } })), []);
    assert.deepEqual(messages(validateLimitRange(limitRange({ type: 'Container', min: { cpu: '2' }, max: { cpu: '1' } }))), [
      'spec.limits[0].min[cpu]: Invalid value: "2": min value 2 is greater than max value 1',
    ]);
    assert.deepEqual(messages(validateLimitRange(limitRange({ type: 'Pod', default: { cpu: '1' } }))), [
      'spec.limits[0].default: Invalid value: map[string]string{"cpu":"1"}: may not be specified when `type` is \'Pod\'',
    ]);
    assert.equal(validateLimitRange(limitRange({ type: 'Node' })).length, 1);
  });
});
