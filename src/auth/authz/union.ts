// Authorizers asked in order, the first that allows wins (Kubernetes' union authorizer), behind
// the one rule no RBAC object can take away: system:masters may do everything.
import { MASTERS_GROUP } from '../components.js';
import type { Authorizer, Decision, RequestAttributes } from '../types.js';

const MASTERS_DECISION: Decision = Object.freeze({ allowed: true, reason: `the group ${MASTERS_GROUP} may do everything` });

export function unionAuthorizer(authorizers: readonly Authorizer[]): Authorizer {
  return {
    authorize(attributes: RequestAttributes): Decision {
      if (attributes.user.groups.includes(MASTERS_GROUP)) return MASTERS_DECISION;
      const reasons: string[] = [];
      for (const authorizer of authorizers) {
        const decision = authorizer.authorize(attributes);
        if (decision.allowed) return decision;
        if (decision.reason) reasons.push(decision.reason);
      }
      return { allowed: false, reason: reasons.join('; ') };
    },
  };
}
