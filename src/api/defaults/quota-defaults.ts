// LimitRange defaulting, as Kubernetes' SetDefaults_LimitRangeItem: for Container items, a
// missing default limit is the max, and a missing default request is the default limit, else the
// min. The stored LimitRange then says exactly what the admission will fill into containers.
import type { KubeObject } from '../meta.js';
import { isObject } from '../meta.js';

type Obj = Record<string, unknown>;

function fillMissing(target: Obj, source: unknown): void {
  if (!isObject(source)) return;
  for (const [name, value] of Object.entries(source)) if (target[name] === undefined) target[name] = value;
}

export function applyLimitRangeDefaults(limitRange: KubeObject): void {
  const spec = limitRange['spec'];
  if (!isObject(spec) || !Array.isArray(spec['limits'])) return;
  for (const item of spec['limits']) {
    if (!isObject(item) || item['type'] !== 'Container') continue;
    const defaults = isObject(item['default']) ? item['default'] : {};
    const requests = isObject(item['defaultRequest']) ? item['defaultRequest'] : {};
    fillMissing(defaults, item['max']);
    fillMissing(requests, defaults);
    fillMissing(requests, item['min']);
    if (Object.keys(defaults).length > 0) item['default'] = defaults;
    if (Object.keys(requests).length > 0) item['defaultRequest'] = requests;
  }
}
