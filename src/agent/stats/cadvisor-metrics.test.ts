import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Registry } from 'prom-client';
import { registerContainerMetrics } from './cadvisor-metrics.js';
import type { ResourceSampler } from './resource-sampler.js';

describe('cAdvisor-named container metrics', () => {
  it('carry the sampler\'s newest counters under cAdvisor\'s names and labels, and the running pods', async () => {
    const registry = new Registry();
    const sampler = {
      newestCounters: () => [{ pod: { namespace: 'ns', name: 'web', uid: 'u1' }, container: 'app', usage: { time: 0, windowSeconds: 15, usageCoreNanoSeconds: 2.5e9, workingSetBytes: 4096 } }],
    } as unknown as ResourceSampler;
    registerContainerMetrics(registry, sampler, async () => 3);
    const text = await registry.metrics();
    assert.match(text, /^# TYPE container_cpu_usage_seconds_total counter$/m);
    assert.match(text, /^container_cpu_usage_seconds_total\{container="app",pod="web",namespace="ns"\} 2\.5$/m);
    assert.match(text, /^container_memory_working_set_bytes\{container="app",pod="web",namespace="ns"\} 4096$/m);
    assert.match(text, /^kubelet_running_pods 3$/m);
  });
});
