// Labelling a namespace with a stricter enforce level does not touch its running pods, but the
// person labelling should learn which of them the new level would refuse. As Kubernetes does,
// pods with the same violations are told together, one pod per controller is looked at first,
// and the look is bounded in pods and time so that labelling a huge namespace stays quick.
import type { KubeObject } from '../../../api/meta.js';
import { controllerRefOf } from '../../../api/owner-references.js';
import { checkPod, violationReasons } from './evaluate.js';
import { podViewOf } from './pod-view.js';
import { policyName, type LevelVersion } from './policy.js';

const MAX_PODS_CHECKED = 3000;
const TIME_BUDGET_MS = 1000;

export function existingPodWarnings(namespace: string, enforce: LevelVersion, pods: readonly KubeObject[], now: () => number = Date.now): string[] {
  const ordered = oneOfEachControllerFirst(pods);
  const deadline = now() + TIME_BUDGET_MS;
  // violation reasons → the lexically first pod with them, and how many pods share them
  const byReasons = new Map<string, { first: string; count: number }>();
  let checked = 0;
  for (const pod of ordered.slice(0, MAX_PODS_CHECKED)) {
    checked++;
    const violations = checkPod(enforce.level, podViewOf(pod));
    if (violations.length > 0) {
      const reasons = violationReasons(violations);
      const name = pod.metadata.name ?? '';
      const seen = byReasons.get(reasons);
      if (!seen) byReasons.set(reasons, { first: name, count: 1 });
      else byReasons.set(reasons, { first: name < seen.first ? name : seen.first, count: seen.count + 1 });
    }
    if (now() > deadline) break;
  }
  const warnings: string[] = [];
  if (checked < ordered.length) warnings.push(`new PodSecurity enforce level only checked against the first ${checked} of ${ordered.length} existing pods`);
  if (byReasons.size > 0)
    warnings.push(`existing pods in namespace ${JSON.stringify(namespace)} violate the new PodSecurity enforce level ${JSON.stringify(policyName(enforce))}`);
  const perPods = [...byReasons].map(([reasons, { first, count }]) => `${first}${othersPhrase(count - 1)}: ${reasons}`);
  return [...warnings, ...perPods.sort()];
}

function othersPhrase(others: number): string {
  if (others === 0) return '';
  return others === 1 ? ' (and 1 other pod)' : ` (and ${others} other pods)`;
}

/** Replicas of one controller usually share their violations: one of each goes first. */
function oneOfEachControllerFirst(pods: readonly KubeObject[]): KubeObject[] {
  const first: KubeObject[] = [];
  const rest: KubeObject[] = [];
  const seenControllers = new Set<string>();
  for (const pod of pods) {
    const controller = controllerRefOf(pod);
    if (!controller) first.push(pod);
    else if (seenControllers.has(controller.uid)) rest.push(pod);
    else {
      seenControllers.add(controller.uid);
      first.push(pod);
    }
  }
  return [...first, ...rest];
}
