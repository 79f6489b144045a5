// The pod-security.kubernetes.io/* namespace labels read as a policy, as Kubernetes' PodSecurity
// admission reads them: per mode (enforce, warn, audit) a level and the version on its
// -version label. Every version ("latest", "v1.x") is checked with the latest rules; the
// version is kept only to name the policy in messages ("baseline:v1.29").
import type { FieldError } from '../../../api/meta.js';
import { invalid } from '../../../api/validation/field-errors.js';

export const POD_SECURITY_LEVELS = ['privileged', 'baseline', 'restricted'] as const;
export type PodSecurityLevel = (typeof POD_SECURITY_LEVELS)[number];

export const MODES = ['enforce', 'warn', 'audit'] as const;
export type Mode = (typeof MODES)[number];

export interface LevelVersion {
  level: PodSecurityLevel;
  version: string;
}

export type Policy = Record<Mode, LevelVersion>;

export const LABEL_PREFIX = 'pod-security.kubernetes.io/';

const VERSION = /^(latest|v1\.(0|[1-9][0-9]*))$/;

export function isLevel(value: string): value is PodSecurityLevel {
  return (POD_SECURITY_LEVELS as readonly string[]).includes(value);
}

/** How a policy is named in messages: `restricted:latest`. */
export function policyName(levelVersion: LevelVersion): string {
  return `${levelVersion.level}:${levelVersion.version}`;
}

/** -1, 0 or 1 as `a` is less strict than, as strict as, or stricter than `b`. */
export function compareLevels(a: PodSecurityLevel, b: PodSecurityLevel): number {
  return Math.sign(POD_SECURITY_LEVELS.indexOf(a) - POD_SECURITY_LEVELS.indexOf(b));
}

/** Every mode at one level: the server-wide default for namespaces without labels. */
export function uniformPolicy(level: PodSecurityLevel): Policy {
  return { enforce: { level, version: 'latest' }, warn: { level, version: 'latest' }, audit: { level, version: 'latest' } };
}

/**
 * The policy the labels give, over `defaults` for modes they leave out, and an error per bad
 * label. A bad level still yields a policy, as in Kubernetes: enforce fails closed (restricted),
 * warn and audit fail open (privileged); a bad version reads as latest.
 *
 * An enforce label without a warn label also warns at the enforce level (Kubernetes 1.26+):
 * enforce never applies to Deployments and other workload resources, so without this their
 * creator would learn only from the missing pods that the template cannot run.
 */
export function policyFromLabels(labels: Readonly<Record<string, string>>, defaults: Policy): { policy: Policy; errors: FieldError[] } {
  const policy: Policy = { enforce: { ...defaults.enforce }, warn: { ...defaults.warn }, audit: { ...defaults.audit } };
  const errors: FieldError[] = [];
  for (const mode of MODES) {
    const level = labels[`${LABEL_PREFIX}${mode}`];
    if (level !== undefined) {
      if (isLevel(level)) policy[mode].level = level;
      else {
        errors.push(invalid(labelField(mode), level, `must be one of ${POD_SECURITY_LEVELS.join(', ')}`));
        policy[mode].level = mode === 'enforce' ? 'restricted' : 'privileged';
      }
    }
    const version = labels[`${LABEL_PREFIX}${mode}-version`];
    if (version !== undefined) {
      if (VERSION.test(version)) policy[mode].version = version;
      else {
        errors.push(invalid(labelField(`${mode}-version`), version, 'must be "latest" or "v1.x"'));
        policy[mode].version = 'latest';
      }
    }
  }
  const enforceLabelled = labels[`${LABEL_PREFIX}enforce`] !== undefined;
  const warnLabelled = labels[`${LABEL_PREFIX}warn`] !== undefined;
  if (enforceLabelled && !warnLabelled && compareLevels(policy.warn.level, policy.enforce.level) < 0) {
    policy.warn.level = policy.enforce.level;
    if (labels[`${LABEL_PREFIX}warn-version`] === undefined) policy.warn.version = policy.enforce.version;
  }
  return { policy, errors };
}

function labelField(suffix: string): string {
  return `metadata.labels[${LABEL_PREFIX}${suffix}]`;
}
