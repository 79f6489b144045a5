// autoscaling/v2 HorizontalPodAutoscaler rules (pkg/apis/autoscaling/validation), for the
// metric types Drover can read (Resource, ContainerResource) and the others' shape.
import type { FieldError, KubeObject } from '../meta.js';
import { invalid, notSupported, required } from './field-errors.js';
import { parseQuantity } from './quantity.js';
import { obj, type Obj } from './util.js';

const METRIC_TYPES = ['Object', 'Pods', 'Resource', 'ContainerResource', 'External'];
const MAX_PERIOD_SECONDS = 1800;
const MAX_STABILIZATION_SECONDS = 3600;

export function validateHpa(hpa: KubeObject): FieldError[] {
  const spec = obj(hpa['spec']);
  const errors: FieldError[] = [...validateTargetRef(obj(spec['scaleTargetRef']), 'spec.scaleTargetRef')];
  const min = spec['minReplicas'];
  const max = spec['maxReplicas'];
  if (typeof min === 'number' && min < 1) errors.push(invalid('spec.minReplicas', min, 'must be greater than or equal to 1'));
  if (typeof max !== 'number') errors.push(required('spec.maxReplicas'));
  else if (max < 1) errors.push(invalid('spec.maxReplicas', max, 'must be greater than 0'));
  else if (typeof min === 'number' && max < min) errors.push(invalid('spec.maxReplicas', max, 'must be greater than or equal to `minReplicas`'));
  const metrics = Array.isArray(spec['metrics']) ? spec['metrics'] : [];
  metrics.forEach((metric, i) => errors.push(...validateMetric(obj(metric), `spec.metrics[${i}]`)));
  const behavior = obj(spec['behavior']);
  for (const direction of ['scaleUp', 'scaleDown']) {
    if (behavior[direction] !== undefined && behavior[direction] !== null)
      errors.push(...validateRules(obj(behavior[direction]), `spec.behavior.${direction}`));
  }
  return errors;
}

function validateTargetRef(ref: Obj, path: string): FieldError[] {
  const errors: FieldError[] = [];
  for (const key of ['kind', 'name']) {
    const value = ref[key];
    if (typeof value !== 'string' || value === '') errors.push(required(`${path}.${key}`));
    else if (value === '.' || value === '..' || /[/%]/.test(value))
      errors.push(invalid(`${path}.${key}`, value, `may not be '${value}' or contain '/' or '%'`));
  }
  return errors;
}

function positiveQuantity(value: unknown, path: string): FieldError[] {
  const parsed = parseQuantity(value);
  return parsed !== undefined && parsed > 0 ? [] : [invalid(path, value, 'must be positive')];
}

/** Resource and ContainerResource targets: Utilization (a percent above 0) or AverageValue. */
function validateResourceTarget(target: Obj, path: string): FieldError[] {
  const type = target['type'];
  if (type === 'Utilization') {
    const utilization = target['averageUtilization'];
    if (typeof utilization !== 'number') return [required(`${path}.averageUtilization`, 'must set either a target raw value or a target utilization')];
    return utilization > 0 ? [] : [invalid(`${path}.averageUtilization`, utilization, 'must be greater than 0')];
  }
  if (type === 'AverageValue') {
    if (target['averageValue'] === undefined) return [required(`${path}.averageValue`, 'must set either a target raw value or a target utilization')];
    return positiveQuantity(target['averageValue'], `${path}.averageValue`);
  }
  if (type === undefined) return [required(`${path}.type`, 'must specify a metric target type')];
  return [invalid(`${path}.type`, type, 'must be either Utilization or AverageValue')];
}

function validateMetric(metric: Obj, path: string): FieldError[] {
  const type = metric['type'];
  if (typeof type !== 'string' || type === '') return [required(`${path}.type`, 'must specify a metric source type')];
  if (!METRIC_TYPES.includes(type)) return [notSupported(`${path}.type`, type, METRIC_TYPES)];
  const key = type === 'ContainerResource' ? 'containerResource' : type.toLowerCase();
  const source = metric[key];
  if (source === undefined || source === null) return [required(`${path}.${key}`, `must populate information for the given metric source (type ${type})`)];
  const errors: FieldError[] = [];
  for (const other of ['resource', 'containerResource', 'pods', 'object', 'external']) {
    if (other !== key && metric[other] !== undefined && metric[other] !== null)
      errors.push(invalid(`${path}.${other}`, '', 'must populate the given metric source only'));
  }
  const body = obj(source);
  if (type === 'Resource' || type === 'ContainerResource') {
    if (typeof body['name'] !== 'string' || body['name'] === '') errors.push(required(`${path}.${key}.name`, 'must specify a resource name'));
    if (type === 'ContainerResource' && (typeof body['container'] !== 'string' || body['container'] === ''))
      errors.push(required(`${path}.${key}.container`, 'must specify a container'));
    errors.push(...validateResourceTarget(obj(body['target']), `${path}.${key}.target`));
  }
  return errors;
}

function validateRules(rules: Obj, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const window = rules['stabilizationWindowSeconds'];
  if (typeof window === 'number' && (window < 0 || window > MAX_STABILIZATION_SECONDS)) {
    errors.push(invalid(`${path}.stabilizationWindowSeconds`, window, `must be less than or equal to ${MAX_STABILIZATION_SECONDS}`));
  }
  const select = rules['selectPolicy'];
  if (select !== undefined && !['Max', 'Min', 'Disabled'].includes(String(select)))
    errors.push(notSupported(`${path}.selectPolicy`, select, ['Disabled', 'Max', 'Min']));
  const policies = Array.isArray(rules['policies']) ? rules['policies'] : [];
  if (policies.length === 0) errors.push(required(`${path}.policies`, 'must specify at least one Policy'));
  policies.forEach((raw, i) => {
    const policy = obj(raw);
    const at = `${path}.policies[${i}]`;
    if (policy['type'] !== 'Pods' && policy['type'] !== 'Percent') errors.push(notSupported(`${at}.type`, policy['type'], ['Percent', 'Pods']));
    const value = policy['value'];
    if (typeof value !== 'number' || value <= 0) errors.push(invalid(`${at}.value`, value, 'must be greater than zero'));
    const period = policy['periodSeconds'];
    if (typeof period !== 'number' || period <= 0) errors.push(invalid(`${at}.periodSeconds`, period, 'must be greater than zero'));
    else if (period > MAX_PERIOD_SECONDS) errors.push(invalid(`${at}.periodSeconds`, period, `must be less than or equal to ${MAX_PERIOD_SECONDS}`));
  });
  return errors;
}
