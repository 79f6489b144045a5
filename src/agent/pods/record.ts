// What the agent remembers about a pod between syncs. Nothing here is needed to rebuild the
// pod after a restart (the runtime's labels and the API status are); it carries the reasons
// a container is waiting, which only the last attempt to start it knows.
import type { VolumePaths } from './volumes/set-up.js';
import type { Pod, PodStatus } from '../../api/core/index.js';

/** Why a container has no running instance: the Kubernetes waiting reason and its message. */
export interface Waiting {
  reason: string;
  message: string;
}

export class PodRecord {
  /** Why a container has no running instance, from the last attempt to start it. */
  readonly waiting = new Map<string, Waiting>();
  /** When a container's start failed (the engine left it "created"), by container id. */
  readonly startFailedAt = new Map<string, number>();
  /** Termination messages of finished containers, by container id (they never change). */
  readonly messages = new Map<string, string>();
  /** When the sandbox could not be made, and why. */
  sandboxError: { at: number; message: string } | undefined;
  volumes: VolumePaths | undefined;
  volumesAt = 0;
  /** The status last written, and the resourceVersion the server gave it. */
  written: { status: PodStatus; resourceVersion: string } | undefined;
  /** Set once the pod finished: its phase never changes again. */
  terminal: { phase: 'Succeeded' | 'Failed'; reason?: string; message?: string } | undefined;
  /** The pod IP once known; it stays in the status after the sandbox stopped. */
  podIP: string | undefined;
  /** When the agent first saw the pod (status.startTime). */
  startTime: string | undefined;

  constructor(public pod: Pod) {}
}
