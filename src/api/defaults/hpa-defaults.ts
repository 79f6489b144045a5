// Defaults of autoscaling/v2 HorizontalPodAutoscaler (SetDefaults_HorizontalPodAutoscaler):
// minReplicas 1; no metrics means 80% average CPU utilization; a behavior that is given has
// each missing direction and field filled with the defaults the controller uses for none.
import type { KubeObject } from '../meta.js';
import { isObject } from '../meta.js';
import { ensureObject, setDefault, type Obj } from './util.js';

export const DEFAULT_CPU_UTILIZATION = 80;

export function defaultScaleUpRules(): Obj {
  return {
    stabilizationWindowSeconds: 0,
    selectPolicy: 'Max',
    policies: [
      { type: 'Pods', value: 4, periodSeconds: 15 },
      { type: 'Percent', value: 100, periodSeconds: 15 },
    ],
  };
}

export function defaultScaleDownRules(): Obj {
  return { stabilizationWindowSeconds: 300, selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] };
}

/** The given rules with every missing field taken from `defaults` (GenerateHPAScale{Up,Down}Rules). */
export function completeRules(given: unknown, defaults: Obj): Obj {
  if (!isObject(given)) return defaults;
  const rules: Obj = { ...given };
  setDefault(rules, 'stabilizationWindowSeconds', defaults['stabilizationWindowSeconds']);
  setDefault(rules, 'selectPolicy', defaults['selectPolicy']);
  if (!Array.isArray(rules['policies'])) rules['policies'] = defaults['policies'];
  return rules;
}

export function applyHpaDefaults(hpa: KubeObject): void {
  const spec = ensureObject(hpa, 'spec');
  setDefault(spec, 'minReplicas', 1);
  if (!Array.isArray(spec['metrics']) || spec['metrics'].length === 0) {
    spec['metrics'] = [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: DEFAULT_CPU_UTILIZATION } } }];
  }
  if (isObject(spec['behavior'])) {
    const behavior = spec['behavior'];
    behavior['scaleUp'] = completeRules(behavior['scaleUp'], defaultScaleUpRules());
    behavior['scaleDown'] = completeRules(behavior['scaleDown'], defaultScaleDownRules());
  }
}
