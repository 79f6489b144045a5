// Kubernetes' Priority admission plugin. On pod create it turns spec.priorityClassName into
// spec.priority and spec.preemptionPolicy (no name: the globalDefault class's, else 0 and
// PreemptLowerPriority), refusing unknown classes and a priority the client set that disagrees
// with the class. On PriorityClass writes it keeps the global default unique.
//
// Kubernetes keeps the system-*-critical classes to kube-system with a ResourceQuota limited-
// resources rule rather than in this plugin; Drover has no such rule, so this step refuses them
// elsewhere itself, with that rule's message. Mirror pods are exempt, as static pods are.
import { isObject, type KubeObject } from '../../api/meta.js';
import { findResource } from '../../api/registry.js';
import { DEFAULT_PRIORITY, SYSTEM_PRIORITY_CLASSES, systemPriorityClass } from '../../api/scheduling/priority.js';
import type { Store } from '../../storage/store.js';
import { forbidden } from '../errors.js';
import { prefixFor } from '../registry/keys.js';
import { whenReady, type MaybePromise } from '../../util/maybe-promise.js';
import type { AdmissionObjects } from './admission-objects.js';
import { isMirrorPod } from './mirror-pods.js';
import type { MutatingAdmission } from './mutating-admission.js';
import type { AdmissionRequest, ValidatingAdmission } from './validating-admission.js';

const CRITICAL_NAMESPACE = 'kube-system';

interface ComputedPriority {
  className: string;
  value: number;
  preemptionPolicy: string;
}

export class PriorityAdmission implements MutatingAdmission, ValidatingAdmission {
  private readonly classes = findResource('scheduling.k8s.io', 'v1', 'priorityclasses')!;

  /** `objects`: the mirrored classes pod creates read; `store`: the fresh list a class's write checks the default against. */
  constructor(
    private readonly store: Store,
    private readonly objects: AdmissionObjects,
  ) {}

  /** A pod's create: its priority is resolved from its class. */
  mutates(request: AdmissionRequest): boolean {
    const { def } = request;
    return request.operation === 'create' && !request.subresource && def.group === '' && def.kind === 'Pod';
  }

  /** A PriorityClass made the default: only one may be. */
  validates(request: AdmissionRequest): boolean {
    const { def, object } = request;
    return !request.subresource && def.kind === 'PriorityClass' && def.group === 'scheduling.k8s.io' && object['globalDefault'] === true;
  }

  admit(request: AdmissionRequest): MaybePromise<void> {
    if (!this.mutates(request)) return;
    const spec = request.object['spec'];
    // Malformed fields are left for validation to report, after the mutating steps.
    if (!isObject(spec) || (spec['priority'] !== undefined && typeof spec['priority'] !== 'number')) return;
    const named = typeof spec['priorityClassName'] === 'string' ? spec['priorityClassName'] : '';
    if (named === '') return whenReady(this.objects.priorityClasses(), (classes) => settle(request.object, spec, computedFrom('', globalDefaultOf(classes))));
    return whenReady(this.objects.priorityClass(named), (pc) => {
      if (!pc) throw refusal(request.object, `no PriorityClass with name ${named} was found`);
      settle(request.object, spec, computedFrom(named, pc));
    });
  }

  async validate(request: AdmissionRequest): Promise<string[]> {
    if (!this.validates(request)) return [];
    const { object } = request;
    const current = globalDefaultOf((await this.store.list({ prefix: prefixFor(this.classes) })).items);
    // A second default, or another class made the default while one exists (updating the default itself is fine).
    if (current !== undefined && current.metadata.name !== object.metadata.name) {
      const name = object.metadata.name ?? '';
      throw forbidden(
        `priorityclasses.scheduling.k8s.io "${name}" is forbidden: PriorityClass ${current.metadata.name} is already marked as default. Only one default can exist`,
        { group: 'scheduling.k8s.io', plural: 'priorityclasses', name },
      );
    }
    return [];
  }
}

/**
 * The priority a pod gets: that of `pc`, the class it names as `className`, or, naming none (''),
 * that of `pc` the global default class, or Kubernetes' default when there is none either.
 */
function computedFrom(className: string, pc: KubeObject | undefined): ComputedPriority {
  if (pc === undefined) return { className, value: DEFAULT_PRIORITY, preemptionPolicy: 'PreemptLowerPriority' };
  return {
    className: className || pc.metadata.name!,
    value: pc['value'] as number,
    preemptionPolicy: (pc['preemptionPolicy'] as string | undefined) ?? 'PreemptLowerPriority',
  };
}

function refusal(pod: KubeObject, message: string) {
  const name = pod.metadata.name ?? '';
  return forbidden(`pods "${name}" is forbidden: ${message}`, { group: '', plural: 'pods', name });
}

/** Sets the pod's priority fields from what its class gives, refusing values the client set that disagree. */
function settle(pod: KubeObject, spec: Record<string, unknown>, computed: ComputedPriority): void {
  if (systemPriorityClass(computed.className) && pod.metadata.namespace !== CRITICAL_NAMESPACE && !isMirrorPod(pod)) {
    const names = SYSTEM_PRIORITY_CLASSES.map((pc) => pc.name).join(' ');
    throw refusal(pod, `insufficient quota to match these scopes: [{PriorityClass In [${names}]}]`);
  }
  if (typeof spec['priority'] === 'number' && spec['priority'] !== computed.value) {
    throw refusal(
      pod,
      `the integer value of priority (${spec['priority']}) must not be provided in pod spec; priority admission controller computed ${computed.value} from the given PriorityClass name`,
    );
  }
  if (typeof spec['preemptionPolicy'] === 'string' && spec['preemptionPolicy'] !== computed.preemptionPolicy) {
    throw refusal(
      pod,
      `the string value of PreemptionPolicy (${spec['preemptionPolicy']}) must not be provided in pod spec; priority admission controller computed ${computed.preemptionPolicy} from the given PriorityClass name`,
    );
  }
  if (computed.className !== '') spec['priorityClassName'] = computed.className;
  spec['priority'] = computed.value;
  spec['preemptionPolicy'] = computed.preemptionPolicy;
}

/** The class marked globalDefault; with several (written before this check), the lowest value, as Kubernetes picks. */
function globalDefaultOf(classes: readonly KubeObject[]): KubeObject | undefined {
  let found: KubeObject | undefined;
  for (const pc of classes) {
    if (pc['globalDefault'] !== true) continue;
    if (found === undefined || (pc['value'] as number) < (found['value'] as number)) found = pc;
  }
  return found;
}
