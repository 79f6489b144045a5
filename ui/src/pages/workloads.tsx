// Workloads: Deployments, DaemonSets, Jobs, training jobs and PodGroups, each with its status,
// ready/desired, restarts, and CPU/memory (usage / requests / limits) summed over its pods; a
// Deployment scales, restarts and rolls back from here. Every action is the user's own request:
// what RBAC refuses comes back as the API's Status message.
import { useState } from 'preact/hooks';
import { errorMessage } from '../api/client';
import { usePodMetrics, type Polled, type Usage } from '../api/metrics';
import { isTerminal, restartsOf, selectPods, specResources } from '../api/pods';
import { PATHS } from '../api/resources';
import { keyOf, type KubeObject } from '../api/types';
import { useCollection } from '../api/watch';
import { MetricsNote } from '../components/metrics-note';
import { StatusBanner } from '../components/status-banner';
import { formatBytes, formatCpu } from '../quantity';
import { href } from '../router';
import { restart, rollBack, scale } from './workload-actions';
import { KINDS, type WorkloadKind } from './workload-kinds';

export function Workloads() {
  const pods = useCollection(PATHS.pods);
  const replicaSets = useCollection(PATHS.replicasets);
  const metrics = usePodMetrics();
  const [error, setError] = useState<string>();
  const [notice, setNotice] = useState<string>();
  const podsByNamespace = new Map<string, KubeObject[]>();
  for (const pod of pods.items) {
    const ns = pod.metadata.namespace ?? '';
    const list = podsByNamespace.get(ns);
    if (list) list.push(pod);
    else podsByNamespace.set(ns, [pod]);
  }
  const act = async (what: string, action: () => Promise<unknown>) => {
    setError(undefined);
    setNotice(undefined);
    try {
      await action();
      setNotice(what);
    } catch (failure) {
      setError(errorMessage(failure));
    }
  };
  return (
    <section>
      <h1>Workloads</h1>
      <StatusBanner message={error} onDismiss={() => setError(undefined)} />
      <MetricsNote message={metrics.error} />
      {notice && (
        <div class="notice" role="status">
          {notice}
        </div>
      )}
      {KINDS.map((kind) => (
        <KindTable key={kind.path} kind={kind} podsByNamespace={podsByNamespace} metrics={metrics} replicaSets={replicaSets.items} act={act} />
      ))}
    </section>
  );
}

interface TableProps {
  kind: WorkloadKind;
  podsByNamespace: Map<string, KubeObject[]>;
  metrics: Polled<Map<string, Usage>>;
  replicaSets: readonly KubeObject[];
  act: (what: string, action: () => Promise<unknown>) => Promise<void>;
}

function KindTable({ kind, podsByNamespace, metrics, replicaSets, act }: TableProps) {
  const objects = useCollection(kind.path);
  if (objects.loaded && objects.items.length === 0 && !objects.error) return null;
  return (
    <div class="kind" data-kind={kind.title}>
      <h2>{kind.title}</h2>
      <StatusBanner message={objects.error} />
      <table class="grid" aria-label={kind.title}>
        <thead>
          <tr>
            <th>Namespace</th>
            <th>Name</th>
            <th>Status</th>
            <th>Ready</th>
            <th>Restarts</th>
            <th>CPU use / req / lim</th>
            <th>Memory use / req / lim</th>
            <th>Actions</th>
          </tr>
        </thead>
        <tbody>
          {objects.items.map((object) => {
            const own = selectPods(kind.podSelector(object), podsByNamespace.get(object.metadata.namespace ?? '') ?? []);
            return <WorkloadRow key={keyOf(object)} kind={kind} object={object} pods={own} metrics={metrics} replicaSets={replicaSets} act={act} />;
          })}
        </tbody>
      </table>
    </div>
  );
}

interface RowProps extends Omit<TableProps, 'podsByNamespace'> {
  object: KubeObject;
  pods: KubeObject[];
}

function WorkloadRow({ kind, object, pods, metrics, replicaSets, act }: RowProps) {
  const { namespace = '', name } = object.metadata;
  const [replicas, setReplicas] = useState(String(object.spec?.replicas ?? 1));
  const live = pods.filter((p) => !isTerminal(p));
  const requests = live.map((p) => specResources(p.spec));
  const sum = (pick: (r: (typeof requests)[number]) => number) => requests.reduce((s, r) => s + pick(r), 0);
  const usage = usageOfPods(live, metrics.value);
  const cpu = sum((r) => r.cpuRequest);
  const memory = sum((r) => r.memoryRequest);
  const cpuLimit = sum((r) => r.cpuLimit);
  const memoryLimit = sum((r) => r.memoryLimit);
  const txTarget = `${namespace}/${kind.kind.toLowerCase()}/${name}`;
  const revision = object.metadata.annotations?.['deployment.kubernetes.io/revision'];
  return (
    <tr data-name={name} data-revision={revision}>
      <td>{namespace}</td>
      <td>
        {name}
        {revision ? <span class="muted small"> rev {revision}</span> : null}{' '}
        <a class="small" href={href('transactions', txTarget)} title="its transactions">
          timeline
        </a>
      </td>
      <td>{kind.status(object)}</td>
      <td class="ready">{kind.ready(object)}</td>
      <td>{pods.reduce((s, p) => s + restartsOf(p), 0)}</td>
      <td class="cpu" title={usage.partial}>
        {usage.known ? formatCpu(usage.cpu) : '—'}
        {usage.partial ? '*' : ''} / {cpu ? formatCpu(cpu) : '—'} / {cpuLimit ? formatCpu(cpuLimit) : '—'}
      </td>
      <td class="memory" title={usage.partial}>
        {usage.known ? formatBytes(usage.memory) : '—'}
        {usage.partial ? '*' : ''} / {memory ? formatBytes(memory) : '—'} / {memoryLimit ? formatBytes(memoryLimit) : '—'}
      </td>
      <td class="actions">
        {kind.scalable && (
          <form
            class="inline"
            onSubmit={(e) => {
              e.preventDefault();
              void act(`scaled ${name} to ${replicas}`, () => scale(kind.path, namespace, name, Number(replicas)));
            }}
          >
            <input
              type="number"
              min="0"
              value={replicas}
              aria-label={`replicas of ${name}`}
              onInput={(e) => setReplicas((e.target as HTMLInputElement).value)}
            />
            <button type="submit">Scale</button>
          </form>
        )}
        {kind.restartable && (
          <button type="button" onClick={() => void act(`restarted ${name}`, () => restart(kind.path, namespace, name))}>
            Restart
          </button>
        )}
        {kind.kind === 'Deployment' && (
          <button type="button" onClick={() => void act(`rolled ${name} back`, () => rollBack(object, replicaSets))}>
            Roll back
          </button>
        )}
        {pods[0] && <a href={href('pod', namespace, pods[0].metadata.name)}>pod</a>}
      </td>
    </tr>
  );
}

/**
 * The usage summed over a workload's running pods. A pod with no figures yet (just started) is
 * left out of the sum, and the sum says so (`*`, with how many were measured); with none
 * measured there is no figure at all.
 */
function usageOfPods(pods: readonly KubeObject[], figures: Map<string, Usage> | undefined) {
  const measured = pods.map((p) => figures?.get(keyOf(p))).filter((u) => u !== undefined);
  return {
    known: measured.length > 0,
    cpu: measured.reduce((s, u) => s + u.cpu, 0),
    memory: measured.reduce((s, u) => s + u.memory, 0),
    partial: measured.length > 0 && measured.length < pods.length ? `${measured.length} of ${pods.length} pods measured` : undefined,
  };
}
