// A pod against a level: which checks run, in which order, and how their findings read. The
// order is Kubernetes' (check IDs sorted, baseline before restricted), so a message names its
// violations in the same order a Kubernetes API server would.
import type { PodSecurityLevel } from './policy.js';
import { BASELINE_CHECKS } from './baseline-checks.js';
import { RESTRICTED_CHECKS } from './restricted-checks.js';
import type { PodCheck, PodView, Violation } from './pod-view.js';

const byId = (a: PodCheck, b: PodCheck): number => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
const replacedAtRestricted = new Set(RESTRICTED_CHECKS.flatMap((check) => check.replaces ?? []));

const CHECKS_BY_LEVEL: Record<PodSecurityLevel, readonly PodCheck[]> = {
  privileged: [],
  baseline: [...BASELINE_CHECKS].sort(byId),
  restricted: [...BASELINE_CHECKS.filter((check) => !replacedAtRestricted.has(check.id)).sort(byId), ...[...RESTRICTED_CHECKS].sort(byId)],
};

/** Every way the pod breaks the level; none for a pod the level allows. */
export function checkPod(level: PodSecurityLevel, pod: PodView): Violation[] {
  const found: Violation[] = [];
  for (const { check } of CHECKS_BY_LEVEL[level]) {
    const violation = check(pod);
    if (violation) found.push(violation);
  }
  return found;
}

/** The long form, for one object: `privileged (container "c" must not ...), hostPort (...)`. */
export function describeViolations(violations: readonly Violation[]): string {
  return violations.map(({ reason, detail }) => (detail ? `${reason} (${detail})` : reason)).join(', ');
}

/** The short form, for a namespace's existing pods: `privileged, hostPort`. */
export function violationReasons(violations: readonly Violation[]): string {
  return violations.map(({ reason }) => reason).join(', ');
}
