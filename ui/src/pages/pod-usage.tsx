// A pod's CPU and memory: the figures now (as `kubectl top pod` gives them, from its PodMetrics)
// against its requests and limits, and charts of the last hour from its metrics history.
import { usePodHistory, usePodUsage } from '../api/metrics';
import { specResources } from '../api/pods';
import type { KubeObject } from '../api/types';
import { MetricsNote } from '../components/metrics-note';
import { UsageCharts, linesOf } from '../components/usage-chart';
import { formatBytes, formatCpu } from '../quantity';

export function PodUsage({ pod }: { pod: KubeObject }) {
  const namespace = pod.metadata.namespace ?? '';
  const name = pod.metadata.name;
  const usage = usePodUsage(namespace, name);
  const history = usePodHistory(namespace, name);
  const r = specResources(pod.spec);
  const now = usage.value;
  // The window the figures cover, so a reader (or a test) can tell which moment they describe.
  const when = now ? { 'data-timestamp': now.timestamp, 'data-window': now.window, title: `over ${now.window ?? '?'} to ${now.timestamp ?? '?'}` } : {};
  return (
    <section class="usage" aria-label="usage">
      <h2>Usage</h2>
      <MetricsNote message={usage.error ?? history.error} />
      <div class="usage-now">
        <div>
          CPU{' '}
          <span class="figure" data-usage="cpu" {...when}>
            {now ? formatCpu(now.cpu) : '—'}
          </span>
          <span class="muted">
            {' '}
            request {r.cpuRequest ? formatCpu(r.cpuRequest) : '—'} · limit {r.cpuLimit ? formatCpu(r.cpuLimit) : '—'}
          </span>
        </div>
        <div>
          Memory{' '}
          <span class="figure" data-usage="memory" {...when}>
            {now ? formatBytes(now.memory) : '—'}
          </span>
          <span class="muted">
            {' '}
            request {r.memoryRequest ? formatBytes(r.memoryRequest) : '—'} · limit {r.memoryLimit ? formatBytes(r.memoryLimit) : '—'}
          </span>
        </div>
      </div>
      <UsageCharts
        history={history.value}
        subject={`pod ${namespace}/${name}`}
        cpuLines={linesOf({ request: r.cpuRequest, limit: r.cpuLimit })}
        memoryLines={linesOf({ request: r.memoryRequest, limit: r.memoryLimit })}
      />
    </section>
  );
}
