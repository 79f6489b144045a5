// The control plane of `drover server` and `drover up` on its own thread. The API server and the
// controllers are both busy under load, and Node runs one thread per isolate: sharing one, they
// took turns on a single core of the machine (controller throughput, `npm run bench:workloads`,
// was about a third lower than with `drover controller-manager` and `drover scheduler` as
// separate processes). The thread talks to the API server over HTTP exactly as those do.
import { Worker } from 'node:worker_threads';
import type { ComponentMetrics } from '../apiserver/metrics.js';
import type { ControlPlaneOptions } from './control-plane.js';
import type { PodStartRecord } from '../metrics/pod-start-stages.js';

/** What the main thread may ask the control plane for, and the answer's field. */
interface Reports {
  metrics: ComponentMetrics;
  podStartStages: PodStartRecord[];
}
type Report = keyof Reports;

/** Messages between the two threads. */
export type ToControlPlane = { type: 'stop' } | { type: Report; id: number };
export type FromControlPlane =
  | { type: 'running' }
  | { type: 'stopped' }
  | { type: 'failed'; message: string }
  | { type: 'metrics'; id: number; metrics: ComponentMetrics }
  | { type: 'podStartStages'; id: number; podStartStages: PodStartRecord[] };

export interface ControlPlaneThread {
  /** The scheduler's and the controllers' metrics (component-metrics.ts) as that thread holds them. */
  metrics(timeoutMs?: number): Promise<ComponentMetrics>;
  /** The scheduler's stages of recent pods' starts (pod-start-stages.ts). */
  podStartStages(timeoutMs?: number): Promise<PodStartRecord[]>;
  stop(): Promise<void>;
}

/** Asks the worker for a report; rejects when it does not answer in time. */
function ask<T extends Report>(worker: Worker, type: T, id: number, timeoutMs: number): Promise<Reports[T]> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => done(() => reject(new Error(`the control plane did not report its ${type}`))), timeoutMs);
    const onMessage = (msg: FromControlPlane) => msg.type === type && msg.id === id && done(() => resolve((msg as unknown as Record<T, Reports[T]>)[type]));
    const done = (settle: () => void) => {
      clearTimeout(timer);
      worker.off('message', onMessage);
      settle();
    };
    worker.on('message', onMessage);
    worker.postMessage({ type, id } satisfies ToControlPlane);
  });
}

export async function startControlPlaneThread(options: ControlPlaneOptions): Promise<ControlPlaneThread> {
  const worker = new Worker(new URL('./control-plane-worker.js', import.meta.url), { workerData: options });
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  let stopping = false;
  const message = (type: FromControlPlane['type']) =>
    new Promise<void>((resolve, reject) => {
      const onMessage = (msg: FromControlPlane) => {
        if (msg.type === type) done(resolve);
        else if (msg.type === 'failed') done(() => reject(new Error(`control plane: ${msg.message}`)));
      };
      const onExit = (code: number) => done(() => (type === 'stopped' ? resolve() : reject(new Error(`control plane thread exited with ${code}`))));
      const done = (settle: () => void) => {
        worker.off('message', onMessage);
        worker.off('exit', onExit);
        settle();
      };
      worker.on('message', onMessage);
      worker.on('exit', onExit);
    });
  try {
    await message('running');
  } catch (error) {
    await worker.terminate();
    throw error;
  }
  // The control plane failing for good is the process failing: without the scheduler and the
  // controllers nothing converges, and a supervisor restarting the whole process is the fix.
  worker.once('exit', (code) => {
    if (stopping) return;
    console.error(`control plane thread exited with ${code}; stopping`);
    process.exit(1);
  });
  let asked = 0;
  return {
    metrics: (timeoutMs = 2_000) => ask(worker, 'metrics', ++asked, timeoutMs),
    podStartStages: (timeoutMs = 2_000) => ask(worker, 'podStartStages', ++asked, timeoutMs),
    async stop() {
      stopping = true;
      const stopped = message('stopped');
      worker.postMessage({ type: 'stop' } satisfies ToControlPlane);
      await stopped.catch((error: unknown) => console.error(error));
      // Stopped (or failed to): nothing left to wait for, even if a socket would keep it alive.
      await worker.terminate();
      await exited;
    },
  };
}
