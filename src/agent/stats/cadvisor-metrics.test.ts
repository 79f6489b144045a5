import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Registry } from 'prom-client';
import { registerContainerMetrics } from './cadvisor-metrics.js';
import type { ResourceSampler } from './resource-sampler.js';

describe('cAdvisor-named container metrics', () => {
  it("carry the sampler's newest counters under cAdvisor's names and labels, and the running pods", async () => {
    const registry = new Registry();
    const sampler = {
      newestCounters: () => [
        {
          pod: { namespace: 'ns', name: 'web', uid: 'u1' },
          container: 'app',
          usage: { time: 0, windowSeconds: 15, usageCoreNanoSeconds: 2.5e9, workingSetBytes: 4096 },
        },
      ],
    } as unknown as ResourceSampler;
    const pod = {
      metadata: { namespace: 'ns', name: 'web' },
      spec: { containers: [] },
      status: { containerStatuses: [{ name: 'app', restartCount: 2, ready: true, image: 'i', imageID: '', state: {}, lastState: {} }] },
    };
    const { podStarted } = registerContainerMetrics(registry, sampler, { running: async () => 3, bound: () => [pod as never] });
    podStarted(1.5);
    const text = await registry.metrics();
    assert.match(text, /^# TYPE kube_pod_container_status_restarts_total counter$/m);
    assert.match(text, /^kube_pod_container_status_restarts_total\{namespace="ns",pod="web",container="app"\} 2$/m);
    assert.match(text, /^kubelet_pod_start_duration_seconds_bucket\{le="2"\} 1$/m);
    assert.match(text, /^kubelet_pod_start_duration_seconds_count 1$/m);
    assert.match(text, /^# TYPE container_cpu_usage_seconds_total counter$/m);
    assert.match(text, /^container_cpu_usage_seconds_total\{container="app",pod="web",namespace="ns"\} 2\.5$/m);
    assert.match(text, /^container_memory_working_set_bytes\{container="app",pod="web",namespace="ns"\} 4096$/m);
    assert.match(text, /^kubelet_running_pods 3$/m);
  });
});
