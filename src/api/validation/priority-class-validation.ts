// scheduling.k8s.io/v1 PriorityClass rules, as Kubernetes' ValidatePriorityClass(Update): names
// starting with system- belong to the built-in classes (and must keep their values), user
// classes stay at or below 1000000000, and neither value nor preemptionPolicy changes after
// creation. Only one class may be the global default: that takes a look at the other classes,
// so the Priority admission step checks it (admission/priority-admission.ts).
import type { FieldError, KubeObject } from '../meta.js';
import { HIGHEST_USER_DEFINABLE_PRIORITY, SYSTEM_PRIORITY_CLASS_PREFIX, systemPriorityClass } from '../scheduling/priority.js';
import { forbidden } from './field-errors.js';

export function validatePriorityClass(pc: KubeObject, old?: KubeObject): FieldError[] {
  const errors: FieldError[] = [];
  const name = pc.metadata.name ?? '';
  const value = pc['value'];
  if (name.startsWith(SYSTEM_PRIORITY_CLASS_PREFIX)) {
    const reason = systemClassMismatch(name, value, pc['globalDefault'] === true);
    if (reason !== undefined) {
      errors.push(
        forbidden('metadata.name', `priority class names with '${SYSTEM_PRIORITY_CLASS_PREFIX}' prefix are reserved for system use only. error: ${reason}`),
      );
    }
  } else if (typeof value === 'number' && value > HIGHEST_USER_DEFINABLE_PRIORITY) {
    errors.push(forbidden('value', `maximum allowed value of a user defined priority is ${HIGHEST_USER_DEFINABLE_PRIORITY}`));
  }
  if (old !== undefined) {
    if (old['value'] !== value) errors.push(forbidden('value', 'may not be changed in an update.'));
    if ((old['preemptionPolicy'] ?? null) !== (pc['preemptionPolicy'] ?? null)) errors.push(forbidden('preemptionPolicy', 'may not be changed in an update.'));
  }
  return errors;
}

/** Kubernetes' IsKnownSystemPriorityClass, its error text; undefined when the class is a known system one as it should be. */
function systemClassMismatch(name: string, value: unknown, globalDefault: boolean): string | undefined {
  const known = systemPriorityClass(name);
  if (known === undefined) {
    return `${name} is not a known system priority class`;
  }
  if (value !== known.value) return `value of ${name} PriorityClass must be ${known.value}`;
  if (globalDefault) return `globalDefault of ${name} PriorityClass must be false`;
  return undefined;
}
