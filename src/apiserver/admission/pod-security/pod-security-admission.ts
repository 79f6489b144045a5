// Pod Security admission, as Kubernetes' built-in PodSecurity plugin: namespaces choose a level
// per mode with pod-security.kubernetes.io/* labels (the server's default where they do not).
//   enforce — a pod that breaks the level is refused (403);
//   warn    — the write succeeds with a `Warning:` header kubectl prints;
//   audit   — the violation is recorded in the request's audit annotations.
// Workload kinds with pod templates (Deployment, Job, PyTorchJob, ...) are warned about and
// audited, never refused: their pods are checked when the controller creates them.
import type { KubeObject } from '../../../api/meta.js';
import { jsonEqual } from '../../../util/json-equal.js';
import { whenReady, type MaybePromise } from '../../../util/maybe-promise.js';
import { forbidden, invalid } from '../../errors.js';
import type { AdmissionRequest, ValidatingAdmission } from '../validating-admission.js';
import { checkPod, describeViolations } from './evaluate.js';
import { existingPodWarnings } from './existing-pods.js';
import { changesWhatPodSecurityChecks } from './pod-updates.js';
import { podTemplatePaths, podTemplatesOf } from './pod-templates.js';
import { podViewOf, type PodView, type Violation } from './pod-view.js';
import { compareLevels, policyFromLabels, policyName, uniformPolicy, type LevelVersion, type Policy, type PodSecurityLevel } from './policy.js';

export const AUDIT_VIOLATIONS_ANNOTATION = 'pod-security.kubernetes.io/audit-violations';
export const ENFORCE_POLICY_ANNOTATION = 'pod-security.kubernetes.io/enforce-policy';
export const POLICY_ERROR_ANNOTATION = 'pod-security.kubernetes.io/error';

/**
 * The server's default does not reach kube-system, which holds the cluster's own components (k3s
 * exempts it too); labels put on kube-system on purpose still apply.
 */
const OUTSIDE_THE_DEFAULT = new Set(['kube-system']);

export interface PodSecurityOptions {
  /** Enforced, warned and audited in namespaces without pod-security labels. Default privileged. */
  defaultLevel?: PodSecurityLevel;
  /** The labels of a namespace, or undefined when it does not exist. */
  namespaceLabels(name: string): MaybePromise<Readonly<Record<string, string>> | undefined>;
  listPods(namespace: string): Promise<readonly KubeObject[]>;
}

export class PodSecurityAdmission implements ValidatingAdmission {
  private readonly defaults: Policy;
  /** Stored namespaces' labels and the policy parsed from them (storedPolicy). */
  private readonly parsedLabels = new WeakMap<object, ReturnType<typeof policyFromLabels>>();

  constructor(private readonly options: PodSecurityOptions) {
    this.defaults = uniformPolicy(options.defaultLevel ?? 'privileged');
  }

  /** Namespaces, pods and the kinds that hold pod templates; never a subresource (status, scale, finalize), which changes nothing the checks read. */
  validates(request: AdmissionRequest): boolean {
    const { def } = request;
    if (request.subresource) return false;
    return (def.group === '' && (def.kind === 'Namespace' || def.kind === 'Pod')) || podTemplatePaths(def).length > 0;
  }

  validate(request: AdmissionRequest): MaybePromise<string[]> {
    if (request.subresource) return [];
    const { def } = request;
    if (def.group === '' && def.kind === 'Namespace') return this.admitNamespace(request);
    if (def.group === '' && def.kind === 'Pod') return this.admitPod(request);
    if (podTemplatePaths(def).length > 0) return this.admitTemplates(request);
    return [];
  }

  /** The namespace's policy: its labels over the server's default. */
  policyFor(namespace: string, labels: Readonly<Record<string, string>>): ReturnType<typeof policyFromLabels> {
    return policyFromLabels(labels, OUTSIDE_THE_DEFAULT.has(namespace) ? uniformPolicy('privileged') : this.defaults);
  }

  private namespacePolicy(request: AdmissionRequest): MaybePromise<Policy> {
    const namespace = request.object.metadata.namespace ?? '';
    return whenReady(this.options.namespaceLabels(namespace), (labels) => {
      const { policy, errors } = labels ? this.storedPolicy(namespace, labels) : this.policyFor(namespace, {});
      // Labels stored before they were checked: the policy still holds (bad levels fail closed
      // for enforce), and the audit event says why it may surprise.
      if (errors.length > 0) {
        request.auditAnnotations[POLICY_ERROR_ANNOTATION] = `Failed to parse policy: ${errors.map((e) => `${e.field}: ${e.message}`).join(', ')}`;
      }
      return policy;
    });
  }

  /**
   * The policy of a stored namespace's labels, parsed once: the namespace cache hands out the same
   * labels object until the namespace changes, and every pod create in it asks.
   */
  private storedPolicy(namespace: string, labels: Readonly<Record<string, string>>): ReturnType<typeof policyFromLabels> {
    let parsed = this.parsedLabels.get(labels);
    if (!parsed) this.parsedLabels.set(labels, (parsed = this.policyFor(namespace, labels)));
    return parsed;
  }

  private admitPod(request: AdmissionRequest): MaybePromise<string[]> {
    if (request.old && !changesWhatPodSecurityChecks(request.object, request.old)) return [];
    return whenReady(this.namespacePolicy(request), (policy) => this.judgePod(request, policy));
  }

  private judgePod(request: AdmissionRequest, policy: Policy): string[] {
    if (policy.enforce.level === 'privileged' && policy.warn.level === 'privileged' && policy.audit.level === 'privileged') return [];
    const verdicts = new Verdicts(podViewOf(request.object));
    request.auditAnnotations[ENFORCE_POLICY_ANNOTATION] = policyName(policy.enforce);
    this.audit(request, policy.audit, verdicts.at(policy.audit.level));
    const refused = verdicts.at(policy.enforce.level);
    if (refused.length > 0) {
      const name = request.object.metadata.name ?? '';
      const message = `pods ${JSON.stringify(name)} is forbidden: violates PodSecurity ${JSON.stringify(policyName(policy.enforce))}: ${describeViolations(refused)}`;
      throw forbidden(message, { group: '', plural: 'pods', name });
    }
    const warned = verdicts.at(policy.warn.level);
    return warned.length > 0 ? [wouldViolate(policy.warn, warned)] : [];
  }

  private async admitTemplates(request: AdmissionRequest): Promise<string[]> {
    const policy = await this.namespacePolicy(request);
    if (policy.warn.level === 'privileged' && policy.audit.level === 'privileged') return [];
    const warnings = new Set<string>();
    const audits = new Set<string>();
    // Each template is a pod of its own (a PyTorchJob's Master and Worker); alike findings once.
    for (const { template } of podTemplatesOf(request.def, request.object)) {
      const verdicts = new Verdicts(podViewOf(template));
      const warned = verdicts.at(policy.warn.level);
      if (warned.length > 0) warnings.add(wouldViolate(policy.warn, warned));
      const audited = verdicts.at(policy.audit.level);
      if (audited.length > 0) audits.add(wouldViolate(policy.audit, audited));
    }
    if (audits.size > 0) request.auditAnnotations[AUDIT_VIOLATIONS_ANNOTATION] = [...audits].join('; ');
    return [...warnings];
  }

  private audit(request: AdmissionRequest, audit: LevelVersion, violations: Violation[]): void {
    if (violations.length > 0) request.auditAnnotations[AUDIT_VIOLATIONS_ANNOTATION] = wouldViolate(audit, violations);
  }

  /**
   * Labels must be valid to be set. A stricter enforce level on an existing namespace warns
   * about the pods already there that it would refuse (a new namespace has none).
   */
  private async admitNamespace(request: AdmissionRequest): Promise<string[]> {
    const name = request.object.metadata.name ?? '';
    const next = this.policyFor(name, request.object.metadata.labels ?? {});
    const before = request.old ? this.policyFor(name, request.old.metadata.labels ?? {}) : undefined;
    // Bad labels already stored are not the client's doing: only new or changed ones are refused.
    if (next.errors.length > 0 && !jsonEqual(next.errors, before?.errors)) {
      throw invalid('Namespace', name, '', next.errors);
    }
    if (!before) return [];
    const { enforce } = next.policy;
    const previous = before.policy.enforce;
    if (enforce.level === previous.level && enforce.version === previous.version) return [];
    if (enforce.level === 'privileged') return [];
    if (enforce.version === previous.version && compareLevels(enforce.level, previous.level) <= 0) return [];
    return existingPodWarnings(name, enforce, await this.options.listPods(name));
  }
}

/** A pod's violations per level, each level checked at most once per request. */
class Verdicts {
  private readonly byLevel = new Map<PodSecurityLevel, Violation[]>();

  constructor(private readonly pod: PodView) {}

  at(level: PodSecurityLevel): Violation[] {
    let violations = this.byLevel.get(level);
    if (!violations) {
      violations = checkPod(level, this.pod);
      this.byLevel.set(level, violations);
    }
    return violations;
  }
}

function wouldViolate(levelVersion: LevelVersion, violations: readonly Violation[]): string {
  return `would violate PodSecurity ${JSON.stringify(policyName(levelVersion))}: ${describeViolations(violations)}`;
}
