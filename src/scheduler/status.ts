// The one result type of every extension point, as kube-scheduler's framework.Status: a code,
// the reasons (what FailedScheduling counts per node) and the plugin that gave it. Filters and
// reserve return `undefined` for Success, as Go plugins return a nil *Status, so the per-node hot
// path allocates nothing on success; a plugin whose reasons are fixed returns a constant Status,
// so rejecting allocates nothing either.

export type StatusCode =
  /** The plugin is fine with the pod (or node). */
  | 'Success'
  /** Something went wrong that is not the pod's or the node's fault (an API call failed). */
  | 'Error'
  /** Not here, now; preemption might make room. */
  | 'Unschedulable'
  /** Not here, whatever is removed from the node (a taint, an affinity): preemption need not try. */
  | 'UnschedulableAndUnresolvable'
  /** Permit: hold the pod, assumed on its node, until a plugin allows or rejects it (`timeoutMs`). */
  | 'Wait'
  /** PreFilter: the plugin's filter has nothing to check for this pod; Bind: the next bind plugin binds. */
  | 'Skip';

export interface Status {
  readonly code: StatusCode;
  /** Why, one entry per reason; empty for Success, Skip and Wait. */
  readonly reasons: readonly string[];
  /** The plugin that gave a failure, where the framework or the plugin records it. */
  readonly plugin?: string;
  /** Wait only: the longest the pod is held at permit. */
  readonly timeoutMs?: number;
}

export const SUCCESS: Status = Object.freeze({ code: 'Success', reasons: Object.freeze([]) });
export const SKIP: Status = Object.freeze({ code: 'Skip', reasons: Object.freeze([]) });

export function unschedulable(...reasons: string[]): Status {
  return { code: 'Unschedulable', reasons };
}

export function unresolvable(...reasons: string[]): Status {
  return { code: 'UnschedulableAndUnresolvable', reasons };
}

export function errorStatus(message: string): Status {
  return { code: 'Error', reasons: [message] };
}

/** Permit's verdict for a pod that must wait, at most `timeoutMs`. */
export function waitStatus(timeoutMs: number): Status {
  return { code: 'Wait', reasons: [], timeoutMs };
}

/** The same verdict, naming the plugin that gave it (Go's WithPlugin; a constant Status is left unchanged). */
export function withPlugin(status: Status, plugin: string): Status {
  return status.plugin === plugin ? status : { ...status, plugin };
}

/** Success, or no status at all (a filter's or reserve's nil). */
export function isSuccess(status: Status | undefined): boolean {
  return status === undefined || status.code === 'Success';
}

/** The reasons as one line, as Go's Status.Message() joins them. */
export function messageOf(status: Status): string {
  return status.reasons.join(', ');
}
