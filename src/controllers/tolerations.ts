// Taints and tolerations as the controllers read them from pods and nodes, and Kubernetes'
// rule for whether a toleration covers a taint. Shared by the DaemonSet and node lifecycle
// controllers (the scheduler keeps its own parsed form in src/scheduler/plugins/tolerations.ts).

export interface Toleration {
  key?: string;
  operator?: string;
  value?: string;
  effect?: string;
  tolerationSeconds?: number;
}

export interface Taint {
  key: string;
  value?: string;
  effect: string;
}

export function tolerates(toleration: Readonly<Toleration>, taint: Readonly<Taint>): boolean {
  if (toleration.effect && toleration.effect !== taint.effect) return false;
  if (toleration.key && toleration.key !== taint.key) return false;
  const operator = toleration.operator ?? 'Equal';
  if (operator === 'Exists') return true;
  return operator === 'Equal' && (toleration.value ?? '') === (taint.value ?? '');
}
