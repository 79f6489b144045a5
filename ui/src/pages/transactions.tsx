// Transactions (drover.dev/v1): every operation a controller carried out on a workload — launch,
// scale, update step, delete, reschedule — as a timeline per workload: when it started, how far it
// got, how it ended, and the deadline it had to meet (start + life period).
import { PATHS } from '../api/resources';
import type { KubeObject } from '../api/types';
import { useCollection } from '../api/watch';
import { StatusBanner } from '../components/status-banner';
import { href } from '../router';

const FINISHED = new Set(['Succeeded', 'Failed', 'TimedOut']);

export function isRunning(tx: KubeObject): boolean {
  return !FINISHED.has(tx.status?.phase ?? '');
}

interface Span {
  start: number;
  end: number;
  deadline: number;
}

function spanOf(tx: KubeObject, now: number): Span {
  const start = Date.parse(tx.status?.startTime ?? tx.metadata.creationTimestamp ?? '') || now;
  const end = tx.status?.completionTime ? Date.parse(tx.status.completionTime) : now;
  const deadline = start + Number(tx.spec?.lifePeriodSeconds ?? 0) * 1000;
  return { start, end, deadline };
}

function targetOf(tx: KubeObject): string {
  const target = tx.spec?.target ?? {};
  return `${tx.metadata.namespace}/${String(target.kind ?? '').toLowerCase()}/${target.name ?? ''}`;
}

export function Transactions({ target }: { target: string | undefined }) {
  const transactions = useCollection(PATHS.transactions);
  const now = Date.now();
  const groups = new Map<string, KubeObject[]>();
  for (const tx of transactions.items) {
    const key = targetOf(tx);
    if (target && key !== target) continue;
    const list = groups.get(key);
    if (list) list.push(tx);
    else groups.set(key, [tx]);
  }
  return (
    <section>
      <h1>Transactions</h1>
      <p class="muted">Each operation on a workload, from start to finish, against its deadline (▏).</p>
      <StatusBanner message={transactions.error} />
      {target && (
        <p>
          <a href={href('transactions')}>All workloads</a>
        </p>
      )}
      {groups.size === 0 && transactions.loaded ? <p class="muted">No transactions.</p> : null}
      {[...groups.entries()]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([key, list]) => {
          const sorted = [...list].sort((a, b) => spanOf(a, now).start - spanOf(b, now).start);
          const spans = sorted.map((tx) => spanOf(tx, now));
          const window = { from: Math.min(...spans.map((s) => s.start)), to: Math.max(now, ...spans.map((s) => Math.max(s.end, s.deadline))) };
          return (
            <div class="timeline" key={key} data-target={key}>
              <h2>
                <a href={href('transactions', key)}>{key}</a>
              </h2>
              {sorted.map((tx) => (
                <TransactionRow key={tx.metadata.uid} tx={tx} window={window} />
              ))}
            </div>
          );
        })}
    </section>
  );
}

export function TransactionRow({ tx, window }: { tx: KubeObject; window: { from: number; to: number } | undefined }) {
  const now = Date.now();
  const span = spanOf(tx, now);
  const range = window ?? { from: span.start, to: Math.max(now, span.deadline, span.end) };
  const width = Math.max(1, range.to - range.from);
  const at = (t: number) => `${((t - range.from) / width) * 100}%`;
  const phase = String(tx.status?.phase ?? 'Pending');
  const left = Math.round((span.deadline - now) / 1000);
  return (
    <div class="tx-row" data-phase={phase} data-operation={String(tx.spec?.operation ?? '')}>
      <div class="tx-label">
        <strong>{String(tx.spec?.operation ?? '')}</strong> <span class={`badge phase-${phase.toLowerCase()}`}>{phase}</span>
        {tx.status?.progress ? <span class="muted"> {tx.status.progress}</span> : null}
        {window === undefined ? <span class="muted"> {targetOf(tx)}</span> : null}
        <div class="muted small">
          {tx.spec?.reason ? `${tx.spec.reason} · ` : ''}
          {tx.spec?.user ? `by ${tx.spec.user} · ` : ''}
          started {new Date(span.start).toLocaleTimeString()}
          {FINISHED.has(phase) ? ` · took ${Math.round((span.end - span.start) / 1000)}s` : ` · deadline in ${left}s`}
          {tx.status?.message ? ` · ${tx.status.message}` : ''}
        </div>
      </div>
      <div class="tx-track">
        <span class={`tx-bar phase-${phase.toLowerCase()}`} style={{ left: at(span.start), width: `calc(${at(span.end)} - ${at(span.start)} + 2px)` }} />
        <span class="tx-deadline" style={{ left: at(span.deadline) }} title={`deadline ${new Date(span.deadline).toLocaleTimeString()}`} />
      </div>
    </div>
  );
}
