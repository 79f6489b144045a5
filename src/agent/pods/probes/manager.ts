// Liveness, readiness and startup probes: one worker per running container and probe kind,
// each on its own timer, as the kubelet's prober. Results change only after
// successThreshold / failureThreshold consecutive outcomes; every failed run is an Unhealthy
// event. A readiness change asks for a status write; a liveness or startup failure asks the
// pod worker to kill and restart the container (and the worker stops until then).
import type { HandlerTarget } from './handlers.js';
import { runHandler } from './handlers.js';
import type { PodEvents } from '../events.js';
import type { Container, Pod, Probe } from '../../../api/core/index.js';

export type ProbeKind = 'liveness' | 'readiness' | 'startup';
type Result = 'success' | 'failure' | 'unknown';

export interface ProbeTarget {
  pod: Pod;
  container: Container;
  containerId: string;
  startedAt: Date;
  handler: HandlerTarget;
  /** The API status said this very container was ready (an agent restart keeps it so). */
  wasReady: boolean;
}

const LABEL: Record<ProbeKind, string> = { liveness: 'Liveness', readiness: 'Readiness', startup: 'Startup' };

function probeOf(container: Container, kind: ProbeKind): Probe | undefined {
  return kind === 'liveness' ? container.livenessProbe : kind === 'readiness' ? container.readinessProbe : container.startupProbe;
}

class ProbeWorker {
  result: Result;
  lastOutput = '';
  private successes = 0;
  private failures = 0;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    readonly kind: ProbeKind,
    private readonly probe: Probe,
    private readonly target: ProbeTarget,
    private readonly manager: ProbeManager,
  ) {
    this.result = kind === 'liveness' ? 'success' : kind === 'readiness' && target.wasReady ? 'success' : kind === 'readiness' ? 'failure' : 'unknown';
  }

  start(): void {
    this.schedule(0);
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => void this.tick(), ms);
  }

  private async tick(): Promise<void> {
    const period = (this.probe.periodSeconds ?? 10) * 1000;
    const { target } = this;
    // Liveness and readiness wait for the startup probe; startup stops once it succeeded.
    if (this.kind !== 'startup' && !this.manager.started(target.containerId, target.container)) return this.schedule(period);
    if (this.kind === 'startup' && this.result === 'success') return;
    const sinceStart = Date.now() - target.startedAt.getTime();
    const delay = (this.probe.initialDelaySeconds ?? 0) * 1000;
    if (sinceStart < delay) return this.schedule(Math.min(period, delay - sinceStart));
    const outcome = await runHandler(target.handler, this.probe, (this.probe.timeoutSeconds ?? 1) * 1000);
    if (this.stopped) return;
    this.record(outcome.ok, outcome.output);
    // A failed liveness or startup probe holds until the container is replaced.
    if (this.kind !== 'readiness' && this.result === 'failure') return;
    this.schedule(period);
  }

  private record(ok: boolean, output: string): void {
    const before = this.result;
    if (ok) {
      this.successes++;
      this.failures = 0;
      if (this.successes >= (this.kind === 'readiness' ? (this.probe.successThreshold ?? 1) : 1)) this.result = 'success';
    } else {
      this.failures++;
      this.successes = 0;
      this.lastOutput = output;
      const { pod, container } = this.target;
      this.manager.events.container(pod, container.name, false, 'Warning', 'Unhealthy', `${LABEL[this.kind]} probe failed: ${output}`);
      if (this.failures >= (this.probe.failureThreshold ?? 3)) this.result = 'failure';
    }
    if (before !== this.result) this.manager.changed(this.target.pod.metadata.uid ?? '');
  }
}

export class ProbeManager {
  private readonly workers = new Map<string, Map<string, ProbeWorker>>();
  /** Every worker by `${containerId}/${kind}`, for the lookups status building makes. */
  private readonly byKey = new Map<string, ProbeWorker>();

  constructor(
    readonly events: PodEvents,
    private readonly onChange: (uid: string) => void,
  ) {}

  changed(uid: string): void {
    this.onChange(uid);
  }

  /** Runs workers for exactly these containers of the pod (its running ones). */
  sync(uid: string, targets: readonly ProbeTarget[]): void {
    const mine = this.workers.get(uid) ?? new Map<string, ProbeWorker>();
    const wanted = new Set<string>();
    for (const target of targets) {
      for (const kind of ['startup', 'liveness', 'readiness'] as const) {
        const probe = probeOf(target.container, kind);
        if (!probe) continue;
        const key = `${target.containerId}/${kind}`;
        wanted.add(key);
        if (mine.has(key)) continue;
        const worker = new ProbeWorker(kind, probe, target, this);
        mine.set(key, worker);
        this.byKey.set(key, worker);
        worker.start();
      }
    }
    for (const [key, worker] of mine) {
      if (wanted.has(key)) continue;
      worker.stop();
      mine.delete(key);
      this.byKey.delete(key);
    }
    if (mine.size > 0) this.workers.set(uid, mine);
    else this.workers.delete(uid);
  }

  removePod(uid: string): void {
    for (const [key, worker] of this.workers.get(uid) ?? []) {
      worker.stop();
      this.byKey.delete(key);
    }
    this.workers.delete(uid);
  }

  private worker(containerId: string, kind: ProbeKind): ProbeWorker | undefined {
    return this.byKey.get(`${containerId}/${kind}`);
  }

  started(containerId: string, container: Container): boolean {
    if (!container.startupProbe) return true;
    return this.worker(containerId, 'startup')?.result === 'success';
  }

  ready(containerId: string, container: Container): boolean {
    if (!this.started(containerId, container)) return false;
    if (!container.readinessProbe) return true;
    return this.worker(containerId, 'readiness')?.result === 'success';
  }

  /** Why the container must be restarted (failed liveness or startup probe), if it must. */
  unhealthy(containerId: string): { kind: ProbeKind; output: string } | undefined {
    for (const kind of ['startup', 'liveness'] as const) {
      const worker = this.worker(containerId, kind);
      if (worker?.result === 'failure') return { kind, output: worker.lastOutput };
    }
    return undefined;
  }
}
