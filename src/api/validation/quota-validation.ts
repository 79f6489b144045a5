// LimitRange and ResourceQuota validation, after Kubernetes' ValidateLimitRange and
// ValidateResourceQuota: quantities well formed and not negative, bounds in order
// (min <= defaultRequest <= default <= max), scopes that can be combined with what is limited.
import type { FieldError, KubeObject } from '../meta.js';
import { compare, formatQuantity, parseQuantity, type Quantity } from '../quota/quantity.js';
import { invalid, notSupported, required } from './field-errors.js';
import { isQualifiedName } from './name-rules.js';
import { obj, objects, text } from './util.js';

const LIMIT_TYPES = ['Container', 'Pod', 'PersistentVolumeClaim'];
const SCOPES = ['Terminating', 'NotTerminating', 'BestEffort', 'NotBestEffort', 'PriorityClass', 'CrossNamespacePodAffinity'];
const OPERATORS = ['In', 'NotIn', 'Exists', 'DoesNotExist'];
/** What a BestEffort-scoped quota may limit: best-effort pods ask for no compute resources. */
const BEST_EFFORT_RESOURCES = new Set(['pods']);
/** What Terminating, NotTerminating, NotBestEffort and PriorityClass scopes may limit: pods' resources. */
const POD_SCOPED_RESOURCES = new Set(['pods', 'cpu', 'memory', 'requests.cpu', 'requests.memory', 'limits.cpu', 'limits.memory']);

/** Quantities of one ResourceList, each checked: well formed, not negative, a valid name. */
function quantities(list: unknown, path: string, errors: FieldError[]): Map<string, Quantity> {
  const out = new Map<string, Quantity>();
  for (const [name, value] of Object.entries(obj(list))) {
    const at = `${path}[${name}]`;
    if (isQualifiedName(name).length > 0) errors.push(invalid(at, name, 'must be a standard resource type or fully qualified'));
    const quantity = parseQuantity(value);
    if (!quantity) errors.push(invalid(at, value, 'must be a valid quantity, e.g. 500m or 1Gi'));
    else if (quantity.nano < 0n) errors.push(invalid(at, value, 'must be greater than or equal to 0'));
    else out.set(name, quantity);
  }
  return out;
}

export function validateLimitRange(limitRange: KubeObject): FieldError[] {
  const errors: FieldError[] = [];
  objects(obj(limitRange['spec'])['limits']).forEach((item, index) => {
    const path = `spec.limits[${index}]`;
    const type = text(item['type']);
    if (!type) errors.push(required(`${path}.type`));
    else if (!LIMIT_TYPES.includes(type)) errors.push(notSupported(`${path}.type`, type, LIMIT_TYPES));
    const min = quantities(item['min'], `${path}.min`, errors);
    const max = quantities(item['max'], `${path}.max`, errors);
    const defaults = quantities(item['default'], `${path}.default`, errors);
    const defaultRequests = quantities(item['defaultRequest'], `${path}.defaultRequest`, errors);
    const ratios = quantities(item['maxLimitRequestRatio'], `${path}.maxLimitRequestRatio`, errors);
    if (type === 'Pod' && defaults.size > 0) errors.push(invalid(`${path}.default`, item['default'], "may not be specified when `type` is 'Pod'"));
    if (type === 'Pod' && defaultRequests.size > 0)
      errors.push(invalid(`${path}.defaultRequest`, item['defaultRequest'], "may not be specified when `type` is 'Pod'"));
    for (const [name, low] of min) {
      const high = max.get(name);
      if (high && compare(low, high) > 0)
        errors.push(invalid(`${path}.min[${name}]`, formatQuantity(low), `min value ${formatQuantity(low)} is greater than max value ${formatQuantity(high)}`));
    }
    for (const [name, request] of defaultRequests) {
      const low = min.get(name);
      const high = max.get(name);
      const limit = defaults.get(name);
      if (low && compare(low, request) > 0)
        errors.push(
          invalid(
            `${path}.defaultRequest[${name}]`,
            formatQuantity(request),
            `min value ${formatQuantity(low)} is greater than default request value ${formatQuantity(request)}`,
          ),
        );
      if (high && compare(request, high) > 0)
        errors.push(
          invalid(
            `${path}.defaultRequest[${name}]`,
            formatQuantity(request),
            `default request value ${formatQuantity(request)} is greater than max value ${formatQuantity(high)}`,
          ),
        );
      if (limit && compare(request, limit) > 0)
        errors.push(
          invalid(
            `${path}.defaultRequest[${name}]`,
            formatQuantity(request),
            `default request value ${formatQuantity(request)} is greater than default limit value ${formatQuantity(limit)}`,
          ),
        );
    }
    for (const [name, limit] of defaults) {
      const low = min.get(name);
      const high = max.get(name);
      if (low && compare(low, limit) > 0)
        errors.push(
          invalid(`${path}.default[${name}]`, formatQuantity(limit), `min value ${formatQuantity(low)} is greater than default value ${formatQuantity(limit)}`),
        );
      if (high && compare(limit, high) > 0)
        errors.push(
          invalid(
            `${path}.default[${name}]`,
            formatQuantity(limit),
            `default value ${formatQuantity(limit)} is greater than max value ${formatQuantity(high)}`,
          ),
        );
    }
    for (const [name, ratio] of ratios) {
      if (ratio.nano < 10n ** 9n)
        errors.push(invalid(`${path}.maxLimitRequestRatio[${name}]`, formatQuantity(ratio), 'ratio must be greater than or equal to 1'));
    }
  });
  return errors;
}

export function validateResourceQuota(quota: KubeObject): FieldError[] {
  const errors: FieldError[] = [];
  const spec = obj(quota['spec']);
  const hard = quantities(spec['hard'], 'spec.hard', errors);
  const status = obj(quota['status']);
  quantities(status['hard'], 'status.hard', errors);
  quantities(status['used'], 'status.used', errors);
  const scopes = new Set<string>();
  (Array.isArray(spec['scopes']) ? spec['scopes'] : []).forEach((scope, index) => {
    if (!SCOPES.includes(text(scope))) errors.push(notSupported(`spec.scopes[${index}]`, scope, SCOPES));
    else scopes.add(text(scope));
  });
  objects(obj(spec['scopeSelector'])['matchExpressions']).forEach((expression, index) => {
    const path = `spec.scopeSelector.matchExpressions[${index}]`;
    const scope = text(expression['scopeName']);
    const operator = text(expression['operator']);
    if (!SCOPES.includes(scope)) errors.push(notSupported(`${path}.scopeName`, scope, SCOPES));
    else scopes.add(scope);
    if (!OPERATORS.includes(operator)) errors.push(notSupported(`${path}.operator`, operator, OPERATORS));
    const values = Array.isArray(expression['values']) ? expression['values'] : [];
    if ((operator === 'In' || operator === 'NotIn') && values.length === 0)
      errors.push(required(`${path}.values`, "must be at least one value when `operator` is 'In' or 'NotIn' for scope selector"));
    if ((operator === 'Exists' || operator === 'DoesNotExist') && values.length > 0)
      errors.push(invalid(`${path}.values`, values, "must be no value when `operator` is 'Exist' or 'DoesNotExist' for scope selector"));
  });
  if (scopes.has('Terminating') && scopes.has('NotTerminating')) errors.push(invalid('spec.scopes', [...scopes], 'conflicting scopes'));
  if (scopes.has('BestEffort') && scopes.has('NotBestEffort')) errors.push(invalid('spec.scopes', [...scopes], 'conflicting scopes'));
  for (const name of hard.keys()) {
    const allowed = scopes.has('BestEffort') ? BEST_EFFORT_RESOURCES : scopes.size > 0 ? POD_SCOPED_RESOURCES : undefined;
    if (allowed && !allowed.has(name) && !(scopes.has('BestEffort') ? false : name.startsWith('requests.') || name.startsWith('limits.'))) {
      errors.push(invalid(`spec.hard[${name}]`, name, 'unsupported scope applied to resource'));
    }
  }
  return errors;
}
