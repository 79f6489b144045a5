// spec.behavior, as Kubernetes' HPA applies it (normalizeDesiredReplicasWithBehaviors):
//   1. stabilization: the recommendation is remembered; the result is the current count held
//      between the lowest of the scale-up window's recommendations and the highest of the
//      scale-down window's;
//   2. rate: each policy allows, from the replicas at the start of its period (now less the
//      changes made within it), so many pods or percent more (up) or fewer (down); selectPolicy
//      picks the most (Max) or least (Min) permissive, or forbids the direction (Disabled);
//   3. minReplicas and maxReplicas bound the result.
// Pure functions over a per-autoscaler record of recommendations and scale events, which the
// controller keeps in memory (as Kubernetes does: a restarted controller starts afresh).

export interface ScalingPolicy {
  type: 'Pods' | 'Percent';
  value: number;
  periodSeconds: number;
}

export interface ScalingRules {
  stabilizationWindowSeconds: number;
  selectPolicy: 'Max' | 'Min' | 'Disabled';
  policies: ScalingPolicy[];
}

export interface Behavior {
  scaleUp: ScalingRules;
  scaleDown: ScalingRules;
}

interface Timed {
  time: number;
  value: number;
}

/** One autoscaler's memory: its recent recommendations and the changes it made. */
export interface ScalingRecord {
  recommendations: Timed[];
  scaleUps: Timed[];
  scaleDowns: Timed[];
}

export function emptyRecord(): ScalingRecord {
  return { recommendations: [], scaleUps: [], scaleDowns: [] };
}

export interface Normalized {
  replicas: number;
  /** AbleToScale's reason when stabilization changed the recommendation (else ReadyForNewScale). */
  stabilized?: { reason: string; message: string };
  /** ScalingLimited: True with this reason when the rate or the bounds changed it. */
  limited: boolean;
  reason: string;
  message: string;
}

/**
 * Stabilizes `desired` against both windows at once, and records it (as Kubernetes'
 * stabilizeRecommendationWithBehaviors does): the scale-up window bounds the result from below
 * by its lowest recommendation, the scale-down window from above by its highest, and the
 * current count is held unless it falls outside those bounds. Applying one window chosen by the
 * direction of `desired` would let an old high recommendation scale *up* a shrinking target.
 */
export function stabilize(
  record: ScalingRecord,
  behavior: Behavior,
  current: number,
  desired: number,
  now: number,
): { replicas: number; reason: string; message: string } {
  const upCutoff = now - behavior.scaleUp.stabilizationWindowSeconds * 1000;
  const downCutoff = now - behavior.scaleDown.stabilizationWindowSeconds * 1000;
  let upRecommendation = desired;
  let downRecommendation = desired;
  for (const rec of record.recommendations) {
    if (rec.time > upCutoff) upRecommendation = Math.min(upRecommendation, rec.value);
    if (rec.time > downCutoff) downRecommendation = Math.max(downRecommendation, rec.value);
  }
  let replicas = current;
  if (replicas < upRecommendation) replicas = upRecommendation;
  if (replicas > downRecommendation) replicas = downRecommendation;
  // Recommendations older than both windows are dropped; this one (unstabilized) is kept.
  record.recommendations = record.recommendations.filter((rec) => rec.time > Math.min(upCutoff, downCutoff));
  record.recommendations.push({ time: now, value: desired });
  return desired >= current
    ? { replicas, reason: 'ScaleUpStabilized', message: 'recent recommendations were lower than current one, applying the lowest recent recommendation' }
    : { replicas, reason: 'ScaleDownStabilized', message: 'recent recommendations were higher than current one, applying the highest recent recommendation' };
}

function changedWithin(events: readonly Timed[], periodSeconds: number, now: number): number {
  return events.filter((e) => e.time > now - periodSeconds * 1000).reduce((sum, e) => sum + e.value, 0);
}

/** The most replicas the scale-up rules allow now. */
export function scaleUpLimit(current: number, record: ScalingRecord, rules: ScalingRules, now: number): number {
  if (rules.selectPolicy === 'Disabled') return current;
  let result = rules.selectPolicy === 'Min' ? Number.MAX_SAFE_INTEGER : Number.MIN_SAFE_INTEGER;
  for (const policy of rules.policies) {
    const start = current - changedWithin(record.scaleUps, policy.periodSeconds, now) + changedWithin(record.scaleDowns, policy.periodSeconds, now);
    const proposed = policy.type === 'Pods' ? start + policy.value : Math.ceil(start * (1 + policy.value / 100));
    result = rules.selectPolicy === 'Min' ? Math.min(result, proposed) : Math.max(result, proposed);
  }
  return result;
}

/** The fewest replicas the scale-down rules allow now. */
export function scaleDownLimit(current: number, record: ScalingRecord, rules: ScalingRules, now: number): number {
  if (rules.selectPolicy === 'Disabled') return current;
  let result = rules.selectPolicy === 'Min' ? Number.MIN_SAFE_INTEGER : Number.MAX_SAFE_INTEGER;
  for (const policy of rules.policies) {
    const start = current - changedWithin(record.scaleUps, policy.periodSeconds, now) + changedWithin(record.scaleDowns, policy.periodSeconds, now);
    const proposed = policy.type === 'Pods' ? start - policy.value : Math.trunc(start * (1 - policy.value / 100));
    result = rules.selectPolicy === 'Min' ? Math.max(result, proposed) : Math.min(result, proposed);
  }
  return result;
}

/** The replicas to set, from the metrics' proposal `desired`. */
export function normalize(
  record: ScalingRecord,
  behavior: Behavior,
  bounds: { min: number; max: number },
  current: number,
  desired: number,
  now: number,
): Normalized {
  const stable = stabilize(record, behavior, current, desired, now);
  const stabilized = stable.replicas !== desired ? { reason: stable.reason, message: stable.message } : undefined;
  const withStable = (rest: Omit<Normalized, 'stabilized'>): Normalized => (stabilized ? { ...rest, stabilized } : rest);
  if (stable.replicas > current) {
    const limit = Math.max(scaleUpLimit(current, record, behavior.scaleUp, now), current);
    const [allowed, reason, message] =
      bounds.max > limit
        ? [limit, 'ScaleUpLimit', 'the desired replica count is increasing faster than the maximum scale rate']
        : [bounds.max, 'TooManyReplicas', 'the desired replica count is more than the maximum replica count'];
    if (stable.replicas > allowed) return withStable({ replicas: allowed, limited: true, reason, message });
  } else if (stable.replicas < current) {
    const limit = Math.min(scaleDownLimit(current, record, behavior.scaleDown, now), current);
    const [allowed, reason, message] =
      bounds.min < limit
        ? [limit, 'ScaleDownLimit', 'the desired replica count is decreasing faster than the maximum scale rate']
        : [bounds.min, 'TooFewReplicas', 'the desired replica count is less than the minimum replica count'];
    if (stable.replicas < allowed) return withStable({ replicas: allowed, limited: true, reason, message });
  }
  return withStable({ replicas: stable.replicas, limited: false, reason: 'DesiredWithinRange', message: 'the desired count is within the acceptable range' });
}

/** Records a change the controller made, for the rate policies' periods (the longest is kept). */
export function recordScale(record: ScalingRecord, behavior: Behavior, from: number, to: number, now: number): void {
  const longest = (rules: ScalingRules) => Math.max(0, ...rules.policies.map((p) => p.periodSeconds)) * 1000;
  record.scaleUps = record.scaleUps.filter((e) => e.time > now - longest(behavior.scaleUp));
  record.scaleDowns = record.scaleDowns.filter((e) => e.time > now - longest(behavior.scaleDown));
  if (to > from) record.scaleUps.push({ time: now, value: to - from });
  else if (to < from) record.scaleDowns.push({ time: now, value: from - to });
}
