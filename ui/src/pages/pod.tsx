// One pod: its containers (state, last exit code and reason such as OOMKilled, restarts), their
// environment with Secret values masked, its usage now and over the last hour, live logs, events,
// the YAML, and a terminal.
import { useState } from 'preact/hooks';
import { PATHS } from '../api/resources';
import { age, isTerminal, podStatusWord } from '../api/pods';
import type { KubeObject } from '../api/types';
import { useCollection } from '../api/watch';
import { StatusBanner } from '../components/status-banner';
import { eventTime } from './overview';
import { PodLogs } from './pod-logs';
import { PodTerminal } from './pod-terminal';
import { PodUsage } from './pod-usage';
import { PodYaml } from './pod-yaml';

type Tab = 'logs' | 'events' | 'yaml' | 'terminal';

export function PodPage({ namespace, name }: { namespace: string; name: string }) {
  const pods = useCollection(PATHS.pods);
  const events = useCollection(PATHS.events);
  const [tab, setTab] = useState<Tab>('logs');
  const pod = pods.items.find((p) => p.metadata.namespace === namespace && p.metadata.name === name);
  if (!pod)
    return (
      <section>
        <h1>pod/{name}</h1>
        <StatusBanner message={pods.error} />
        {pods.loaded ? (
          <p>
            Pod {namespace}/{name} not found.
          </p>
        ) : (
          <p>loading…</p>
        )}
      </section>
    );
  const containers: Array<{ name: string }> = pod.spec?.containers ?? [];
  const own = events.items.filter((e) => (e['involvedObject'] as { uid?: string } | undefined)?.uid === pod.metadata.uid);
  return (
    <section>
      <h1>
        pod/{name}{' '}
        <span class="badge" data-status={podStatusWord(pod)}>
          {podStatusWord(pod)}
        </span>
      </h1>
      <p class="muted">
        namespace {namespace} · node {String(pod.spec?.nodeName ?? '—')} · IP {String(pod.status?.podIP ?? '—')} · age {age(pod.metadata.creationTimestamp)}
      </p>
      <Containers pod={pod} />
      <PodUsage pod={pod} />
      <nav class="tabs" role="tablist">
        {(['logs', 'events', 'yaml', 'terminal'] as const).map((t) => (
          <button key={t} type="button" role="tab" aria-selected={tab === t} class={tab === t ? 'active' : ''} onClick={() => setTab(t)}>
            {t === 'yaml' ? 'YAML' : t[0]!.toUpperCase() + t.slice(1)}
          </button>
        ))}
      </nav>
      {tab === 'logs' && <PodLogs namespace={namespace} name={name} containers={containers.map((c) => c.name)} />}
      {tab === 'events' && <Events events={own} />}
      {tab === 'yaml' && <PodYaml namespace={namespace} name={name} resourceVersion={pod.metadata.resourceVersion ?? ''} />}
      {tab === 'terminal' &&
        (isTerminal(pod) ? (
          <p class="muted">The pod has finished ({String(pod.status?.phase)}): a terminal needs a running container.</p>
        ) : (
          <PodTerminal namespace={namespace} name={name} containers={containers.map((c) => c.name)} />
        ))}
    </section>
  );
}

interface ContainerStatus {
  name: string;
  ready?: boolean;
  restartCount?: number;
  state?: Record<string, { reason?: string; exitCode?: number; message?: string; startedAt?: string }>;
  lastState?: Record<string, { reason?: string; exitCode?: number; finishedAt?: string }>;
}

interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: {
    secretKeyRef?: { name: string; key: string };
    configMapKeyRef?: { name: string; key: string };
    fieldRef?: { fieldPath: string };
    resourceFieldRef?: { resource: string };
  };
}

function stateText(state: ContainerStatus['state'] | undefined): string {
  if (!state) return '—';
  const [kind, detail] = Object.entries(state)[0] ?? [];
  if (!kind || !detail) return '—';
  const parts = [kind];
  if (detail.reason) parts.push(detail.reason);
  if (detail.exitCode !== undefined) parts.push(`exit code ${detail.exitCode}`);
  return parts.join(' · ');
}

function Containers({ pod }: { pod: KubeObject }) {
  const specs: Array<{
    name: string;
    image: string;
    env?: EnvVar[];
    envFrom?: Array<{ secretRef?: { name: string }; configMapRef?: { name: string } }>;
    resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  }> = pod.spec?.containers ?? [];
  const statuses: ContainerStatus[] = pod.status?.containerStatuses ?? [];
  return (
    <table class="grid" aria-label="containers">
      <thead>
        <tr>
          <th>Container</th>
          <th>Image</th>
          <th>State</th>
          <th>Last state</th>
          <th>Restarts</th>
          <th>Requests</th>
          <th>Limits</th>
          <th>Environment</th>
        </tr>
      </thead>
      <tbody>
        {specs.map((c) => {
          const status = statuses.find((s) => s.name === c.name);
          return (
            <tr key={c.name} data-container={c.name}>
              <td>
                {c.name}
                {status?.ready ? ' ✓' : ''}
              </td>
              <td>{c.image}</td>
              <td class="state">{stateText(status?.state)}</td>
              <td class="last-state">{stateText(status?.lastState)}</td>
              <td>{status?.restartCount ?? 0}</td>
              <td>
                {Object.entries(c.resources?.requests ?? {})
                  .map(([k, v]) => `${k}=${v}`)
                  .join(' ') || '—'}
              </td>
              <td>
                {Object.entries(c.resources?.limits ?? {})
                  .map(([k, v]) => `${k}=${v}`)
                  .join(' ') || '—'}
              </td>
              <td class="env">
                {(c.env ?? []).map((e) => (
                  <div key={e.name}>
                    <code>{e.name}</code>={envValue(e)}
                  </div>
                ))}
                {(c.envFrom ?? []).map((f, i) => (
                  <div key={i}>{f.secretRef ? `all of secret/${f.secretRef.name} (masked)` : `all of configmap/${f.configMapRef?.name ?? ''}`}</div>
                ))}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/** A Secret's value is never fetched or shown: only where it comes from. */
function envValue(e: EnvVar): string {
  const from = e.valueFrom;
  if (from?.secretKeyRef) return `•••••• (secret ${from.secretKeyRef.name}/${from.secretKeyRef.key})`;
  if (from?.configMapKeyRef) return `(configmap ${from.configMapKeyRef.name}/${from.configMapKeyRef.key})`;
  if (from?.fieldRef) return `(field ${from.fieldRef.fieldPath})`;
  if (from?.resourceFieldRef) return `(resource ${from.resourceFieldRef.resource})`;
  return e.value ?? '';
}

function Events({ events }: { events: KubeObject[] }) {
  const sorted = [...events].sort((a, b) => eventTime(b).localeCompare(eventTime(a)));
  if (sorted.length === 0) return <p class="muted">No events.</p>;
  return (
    <table class="grid" aria-label="events">
      <thead>
        <tr>
          <th>Age</th>
          <th>Type</th>
          <th>Reason</th>
          <th>Count</th>
          <th>Message</th>
        </tr>
      </thead>
      <tbody>
        {sorted.map((e) => (
          <tr key={e.metadata.uid} class={e['type'] === 'Warning' ? 'warning' : ''}>
            <td>{age(eventTime(e))}</td>
            <td>{String(e['type'] ?? '')}</td>
            <td>{String(e['reason'] ?? '')}</td>
            <td>{String(e['count'] ?? 1)}</td>
            <td>{String(e['message'] ?? '')}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
