// The first screen: nodes with capacity, requests and usage, and one node's usage over the last
// hour (the first, or the one picked: one history request per refresh however many nodes);
// pods by phase; recent Warning events; the transactions still running.
import { useState } from 'preact/hooks';
import { useNodeHistory, useNodeMetrics } from '../api/metrics';
import { isTerminal, specResources, type Resources, age } from '../api/pods';
import { PATHS } from '../api/resources';
import type { KubeObject } from '../api/types';
import { useCollection } from '../api/watch';
import { MetricsNote } from '../components/metrics-note';
import { StatusBanner } from '../components/status-banner';
import { UsageCharts, linesOf } from '../components/usage-chart';
import { formatBytes, formatCpu, parseQuantity } from '../quantity';
import { href } from '../router';
import { TransactionRow, isRunning } from './transactions';

const PHASES = ['Pending', 'Running', 'Succeeded', 'Failed', 'Unknown'];
const EVENTS_SHOWN = 15;

export function Overview() {
  const nodes = useCollection(PATHS.nodes);
  const pods = useCollection(PATHS.pods);
  const events = useCollection(PATHS.events);
  const transactions = useCollection(PATHS.transactions);
  const metrics = useNodeMetrics();
  const [picked, setPicked] = useState<string>();
  const charted = nodes.items.find((n) => n.metadata.name === picked) ?? nodes.items[0];
  const history = useNodeHistory(charted?.metadata.name);
  const requested = requestsByNode(pods.items);
  const byPhase = new Map(PHASES.map((p) => [p, 0]));
  for (const pod of pods.items) byPhase.set(pod.status?.phase ?? 'Unknown', (byPhase.get(pod.status?.phase ?? 'Unknown') ?? 0) + 1);
  const warnings = events.items
    .filter((e) => e['type'] === 'Warning')
    .sort((a, b) => eventTime(b).localeCompare(eventTime(a)))
    .slice(0, EVENTS_SHOWN);
  const running = transactions.items.filter(isRunning);
  return (
    <section>
      <h1>Overview</h1>
      <StatusBanner message={nodes.error ?? pods.error} />
      <h2>Nodes</h2>
      <table class="grid" aria-label="nodes">
        <thead>
          <tr>
            <th>Node</th>
            <th>Ready</th>
            <th>Pods</th>
            <th>CPU allocatable</th>
            <th>CPU requests</th>
            <th>CPU usage</th>
            <th>Memory allocatable</th>
            <th>Memory requests</th>
            <th>Memory usage</th>
          </tr>
        </thead>
        <tbody>
          {nodes.items.map((node) => {
            const name = node.metadata.name;
            const allocatable: Record<string, string> = node.status?.allocatable ?? node.status?.capacity ?? {};
            const req = requested.get(name);
            const usage = metrics.value?.get(name);
            return (
              <tr key={name} data-node={name} class={node === charted ? 'selected' : ''}>
                <td>
                  <button type="button" class="link" aria-pressed={node === charted} title="chart its usage" onClick={() => setPicked(name)}>
                    {name}
                  </button>
                </td>
                <td>{readyOf(node)}</td>
                <td>
                  {req?.pods ?? 0} / {allocatable['pods'] ?? '—'}
                </td>
                <td>{formatCpu(parseQuantity(allocatable['cpu']))}</td>
                <td>
                  <Meter used={req?.cpuRequest ?? 0} total={parseQuantity(allocatable['cpu'])} text={formatCpu(req?.cpuRequest ?? 0)} />
                </td>
                <td>{usage ? <Meter used={usage.cpu} total={parseQuantity(allocatable['cpu'])} text={formatCpu(usage.cpu)} /> : '—'}</td>
                <td>{formatBytes(parseQuantity(allocatable['memory']))}</td>
                <td>
                  <Meter used={req?.memoryRequest ?? 0} total={parseQuantity(allocatable['memory'])} text={formatBytes(req?.memoryRequest ?? 0)} />
                </td>
                <td>{usage ? <Meter used={usage.memory} total={parseQuantity(allocatable['memory'])} text={formatBytes(usage.memory)} /> : '—'}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <MetricsNote message={metrics.error ?? history.error} />
      {charted && <NodeCharts node={charted} requested={requested.get(charted.metadata.name)} history={history.value} />}
      <h2>Pods by phase</h2>
      <div class="phases" aria-label="pods by phase">
        {PHASES.map((phase) => (
          <a key={phase} class={`phase phase-${phase.toLowerCase()}`} href={href('pods')} data-phase={phase}>
            <span class="count">{byPhase.get(phase) ?? 0}</span> {phase}
          </a>
        ))}
      </div>
      <h2>Recent warnings</h2>
      {warnings.length === 0 ? (
        <p class="muted">No Warning events.</p>
      ) : (
        <table class="grid" aria-label="warning events">
          <thead>
            <tr>
              <th>Age</th>
              <th>Object</th>
              <th>Reason</th>
              <th>Message</th>
            </tr>
          </thead>
          <tbody>
            {warnings.map((e) => {
              const involved = (e['involvedObject'] ?? {}) as { kind?: string; name?: string; namespace?: string };
              return (
                <tr key={e.metadata.uid}>
                  <td>{age(eventTime(e))}</td>
                  <td>
                    {involved.kind === 'Pod' && involved.namespace ? (
                      <a href={href('pod', involved.namespace, involved.name ?? '')}>{`pod/${involved.name}`}</a>
                    ) : (
                      `${(involved.kind ?? '').toLowerCase()}/${involved.name ?? ''}`
                    )}
                  </td>
                  <td>{String(e['reason'] ?? '')}</td>
                  <td>{String(e['message'] ?? '')}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      <h2>Running transactions</h2>
      {running.length === 0 ? (
        <p class="muted">None running.</p>
      ) : (
        <div class="timeline">
          {running.map((tx) => (
            <TransactionRow key={tx.metadata.uid} tx={tx} window={undefined} />
          ))}
        </div>
      )}
    </section>
  );
}

function NodeCharts({
  node,
  requested,
  history,
}: {
  node: KubeObject;
  requested: Resources | undefined;
  history: Parameters<typeof UsageCharts>[0]['history'];
}) {
  const allocatable: Record<string, string> = node.status?.allocatable ?? node.status?.capacity ?? {};
  return (
    <>
      <h2>Node {node.metadata.name} over the last hour</h2>
      <UsageCharts
        history={history}
        subject={`node ${node.metadata.name}`}
        cpuLines={linesOf({ allocatable: parseQuantity(allocatable['cpu']), request: requested?.cpuRequest })}
        memoryLines={linesOf({ allocatable: parseQuantity(allocatable['memory']), request: requested?.memoryRequest })}
      />
    </>
  );
}

function Meter({ used, total, text }: { used: number; total: number; text: string }) {
  const share = total > 0 ? Math.min(1, used / total) : 0;
  return (
    <span class="meter" title={total > 0 ? `${Math.round((used / total) * 100)} %` : ''}>
      <span class="meter-bar">
        <span class={share > 0.9 ? 'meter-fill hot' : 'meter-fill'} style={{ width: `${share * 100}%` }} />
      </span>
      {text}
    </span>
  );
}

function readyOf(node: KubeObject): string {
  const conditions: Array<{ type: string; status: string }> = node.status?.conditions ?? [];
  const ready = conditions.find((c) => c.type === 'Ready');
  return ready?.status === 'True' ? 'Ready' : 'NotReady';
}

/** Requests of the pods bound to each node and still holding them (not finished), as the scheduler counts. */
function requestsByNode(pods: readonly KubeObject[]): Map<string, Resources & { pods: number }> {
  const out = new Map<string, Resources & { pods: number }>();
  for (const pod of pods) {
    const node = pod.spec?.nodeName as string | undefined;
    if (!node || isTerminal(pod)) continue;
    const sum = out.get(node) ?? { cpuRequest: 0, cpuLimit: 0, memoryRequest: 0, memoryLimit: 0, pods: 0 };
    const r = specResources(pod.spec);
    out.set(node, {
      cpuRequest: sum.cpuRequest + r.cpuRequest,
      cpuLimit: sum.cpuLimit + r.cpuLimit,
      memoryRequest: sum.memoryRequest + r.memoryRequest,
      memoryLimit: sum.memoryLimit + r.memoryLimit,
      pods: sum.pods + 1,
    });
  }
  return out;
}

export function eventTime(e: KubeObject): string {
  return String(e['lastTimestamp'] ?? e['eventTime'] ?? e.metadata.creationTimestamp ?? '');
}
