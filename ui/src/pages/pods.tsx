// Every pod, virtualized, with the figures a list needs: status, restarts, node, requests, usage.
import { usePodMetrics } from '../api/metrics';
import { age, podStatusWord, restartsOf, specResources } from '../api/pods';
import { PATHS } from '../api/resources';
import { keyOf } from '../api/types';
import { useCollection } from '../api/watch';
import { FilteredList } from '../components/filtered-list';
import { formatBytes, formatCpu } from '../quantity';
import { href } from '../router';

export function PodsPage() {
  const pods = useCollection(PATHS.pods);
  const metrics = usePodMetrics();
  return (
    <FilteredList
      title="Pods"
      snapshot={pods}
      keyOf={keyOf}
      header={['Namespace', 'Name', 'Status', 'Restarts', 'Node', 'CPU (use / req / lim)', 'Memory (use / req / lim)', 'Age']}
      row={(pod) => {
        const r = specResources(pod.spec);
        const usage = metrics.value?.get(keyOf(pod));
        return [
          pod.metadata.namespace ?? '',
          <a href={href('pod', pod.metadata.namespace ?? '', pod.metadata.name)}>{pod.metadata.name}</a>,
          podStatusWord(pod),
          String(restartsOf(pod)),
          String(pod.spec?.nodeName ?? ''),
          `${usage ? formatCpu(usage.cpu) : '—'} / ${r.cpuRequest ? formatCpu(r.cpuRequest) : '—'} / ${r.cpuLimit ? formatCpu(r.cpuLimit) : '—'}`,
          `${usage ? formatBytes(usage.memory) : '—'} / ${r.memoryRequest ? formatBytes(r.memoryRequest) : '—'} / ${r.memoryLimit ? formatBytes(r.memoryLimit) : '—'}`,
          age(pod.metadata.creationTimestamp),
        ];
      }}
    />
  );
}
