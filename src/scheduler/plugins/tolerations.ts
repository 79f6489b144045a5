// Tolerations as Kubernetes matches them against taints (ToleratesTaint), shared by the taint,
// cordon and readiness filters.
import type { Taint, TaintEffect } from '../node-info.js';
import { list, record, text, type Obj } from '../object-access.js';

export interface Toleration {
  /** Empty with operator Exists: tolerates every taint. */
  readonly key: string;
  readonly operator: 'Equal' | 'Exists';
  readonly value: string;
  /** Empty: any effect. */
  readonly effect: TaintEffect | '';
}

export function parseTolerations(spec: Obj): Toleration[] {
  const out: Toleration[] = [];
  for (const item of list(spec['tolerations'])) {
    const t = record(item);
    const operator = t['operator'] ?? 'Equal';
    // An unknown operator tolerates nothing, as in Kubernetes.
    if (operator !== 'Equal' && operator !== 'Exists') continue;
    const effect = t['effect'] ?? '';
    if (effect !== '' && effect !== 'NoSchedule' && effect !== 'PreferNoSchedule' && effect !== 'NoExecute') continue;
    out.push({ key: text(t['key']) ?? '', operator, value: text(t['value']) ?? '', effect });
  }
  return out;
}

export function tolerates(t: Toleration, taint: Taint): boolean {
  if (t.effect !== '' && t.effect !== taint.effect) return false;
  if (t.key !== '' && t.key !== taint.key) return false;
  return t.operator === 'Exists' || t.value === taint.value;
}

export function toleratesAny(tolerations: readonly Toleration[], taint: Taint): boolean {
  for (const t of tolerations) if (tolerates(t, taint)) return true;
  return false;
}

export const TAINT_UNSCHEDULABLE = 'node.kubernetes.io/unschedulable';
export const TAINT_NOT_READY = 'node.kubernetes.io/not-ready';
export const TAINT_UNREACHABLE = 'node.kubernetes.io/unreachable';
