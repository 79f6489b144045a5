// Tolerations (core/v1) and Kubernetes' rule for whether one covers a taint
// (Toleration.ToleratesTaint): used by the scheduler's taint, cordon and readiness filters,
// the DaemonSet controller's node eligibility and the node lifecycle controller's evictions.
import type { Taint, TaintEffect } from './taints.js';

export interface Toleration {
  /** Empty or absent: any key (with operator Exists, every taint). */
  key?: string;
  /** Empty or absent means Equal. */
  operator?: string;
  value?: string;
  /** Empty or absent: any effect. */
  effect?: string;
  /** For NoExecute: how long the pod may stay once tainted; absent means forever. */
  tolerationSeconds?: number;
}

/** A toleration as parseTolerations gives it: every field read, the operator defaulted. */
export interface ParsedToleration extends Toleration {
  readonly key: string;
  readonly operator: 'Equal' | 'Exists';
  readonly value: string;
  readonly effect: TaintEffect | '';
}

export function tolerates(toleration: Readonly<Toleration>, taint: Readonly<Taint>): boolean {
  if (toleration.effect && toleration.effect !== taint.effect) return false;
  if (toleration.key && toleration.key !== taint.key) return false;
  switch (toleration.operator ?? '') {
    case '':
    case 'Equal':
      return (toleration.value ?? '') === (taint.value ?? '');
    case 'Exists':
      return true;
    default:
      // An unknown operator tolerates nothing, as in Kubernetes.
      return false;
  }
}

export function toleratesAny(tolerations: readonly Readonly<Toleration>[], taint: Readonly<Taint>): boolean {
  for (const t of tolerations) if (tolerates(t, taint)) return true;
  return false;
}

const isRecord = (value: unknown): value is Readonly<Record<string, unknown>> => typeof value === 'object' && value !== null && !Array.isArray(value);
const textOf = (value: unknown): string => (typeof value === 'string' ? value : '');

/**
 * A pod's `spec.tolerations`, read defensively (a malformed field reads as absent). Tolerations
 * that can tolerate nothing — an unknown operator or effect — are left out, so the per-node
 * checks of the scheduler only see ones that may match.
 */
export function parseTolerations(tolerations: unknown): ParsedToleration[] {
  const out: ParsedToleration[] = [];
  if (!Array.isArray(tolerations)) return out;
  for (const item of tolerations as readonly unknown[]) {
    const t = isRecord(item) ? item : {};
    const operator = (t['operator'] ?? '') === '' ? 'Equal' : t['operator'];
    if (operator !== 'Equal' && operator !== 'Exists') continue;
    const effect = t['effect'] ?? '';
    if (effect !== '' && effect !== 'NoSchedule' && effect !== 'PreferNoSchedule' && effect !== 'NoExecute') continue;
    const seconds = t['tolerationSeconds'];
    out.push({
      key: textOf(t['key']),
      operator,
      value: textOf(t['value']),
      effect,
      ...(typeof seconds === 'number' ? { tolerationSeconds: seconds } : {}),
    });
  }
  return out;
}
