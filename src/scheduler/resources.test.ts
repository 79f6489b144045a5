import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { podInfoOf } from './pod-info.js';
import { DEFAULT_MEMORY_REQUEST, DEFAULT_MILLI_CPU_REQUEST } from './resources.js';
import { makePod } from '../../test/support/scheduler/builders.js';

describe('pod requests', () => {
  it('sums app containers and parses quantities into millicores and bytes', () => {
    const pod = makePod({ name: 'p', containers: [{ requests: { cpu: '250m', memory: '64Mi' } }, { requests: { cpu: '0.3', memory: '1G' } }] });
    const { requests } = podInfoOf(pod);
    assert.equal(requests.milliCpu, 550);
    assert.equal(requests.memory, 64 * 2 ** 20 + 1e9);
  });

  it('takes the larger of the app containers and the biggest init container', () => {
    const pod = makePod({
      name: 'p',
      containers: [{ requests: { cpu: '100m', memory: '100Mi' } }, { requests: { cpu: '100m', memory: '100Mi' } }],
      initContainers: [{ requests: { cpu: '500m', memory: '50Mi' } }, { requests: { cpu: '300m', memory: '150Mi' } }],
    });
    const { requests } = podInfoOf(pod);
    assert.equal(requests.milliCpu, 500, 'the 500m init container outweighs 2 × 100m');
    assert.equal(requests.memory, 200 * 2 ** 20, 'the 2 × 100Mi app containers outweigh any single init container');
  });

  it('counts sidecars (restartPolicy Always) alongside the app and under later init containers', () => {
    const pod = makePod({
      name: 'p',
      containers: [{ requests: { cpu: '100m' } }],
      initContainers: [{ requests: { cpu: '200m' }, restartPolicy: 'Always' }, { requests: { cpu: '400m' } }],
    });
    assert.equal(podInfoOf(pod).requests.milliCpu, 600, 'init 400m runs next to the 200m sidecar');
    const small = makePod({
      name: 'q',
      containers: [{ requests: { cpu: '100m' } }],
      initContainers: [{ requests: { cpu: '200m' }, restartPolicy: 'Always' }, { requests: { cpu: '50m' } }],
    });
    assert.equal(podInfoOf(small).requests.milliCpu, 300, 'app 100m + sidecar 200m');
  });

  it('adds the pod overhead', () => {
    const pod = makePod({ name: 'p', cpu: '1', overhead: { cpu: '250m', memory: '120Mi' } });
    assert.equal(podInfoOf(pod).requests.milliCpu, 1250);
    assert.equal(podInfoOf(pod).requests.memory, 120 * 2 ** 20);
  });

  it('requests nothing for filtering without requests, but 100m/200Mi per container for scoring', () => {
    const info = podInfoOf(makePod({ name: 'p', containers: [{}, { requests: { cpu: '1' } }] }));
    assert.equal(info.requests.milliCpu, 1000);
    assert.equal(info.requests.memory, 0);
    assert.equal(info.nonZeroMilliCpu, 1000 + DEFAULT_MILLI_CPU_REQUEST);
    assert.equal(info.nonZeroMemory, 2 * DEFAULT_MEMORY_REQUEST);
  });

  it('reads extended resources and falls back to limits when a request is missing', () => {
    const info = podInfoOf(makePod({ name: 'p', containers: [{ limits: { 'example.com/gpu': '2', cpu: '500m' } }] }));
    assert.equal(info.requests.scalar?.get('example.com/gpu'), 2);
    assert.equal(info.requests.milliCpu, 500);
  });
});
