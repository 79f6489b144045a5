// RBAC's answers remembered per question until the RBAC objects change. Evaluating a request
// walks every binding of the user and every rule of their roles: ~20-30 µs for a service account
// bound to the aggregated `edit` role, paid again by each of a controller's requests. A decision
// is a pure function of the request's attributes that RBAC reads and of the cached roles and
// bindings, so it stays right until any of those change: the cache is emptied at every RBAC
// event and every resync of the picture (the RbacCache's version), never served across one.
import type { Decision, RequestAttributes } from '../types.js';

/** Beyond this many distinct questions the cache starts over, so a stream of unique names cannot grow it without bound. */
const MAX_DECISIONS = 10_000;

export class DecisionCache {
  private decisions = new Map<string, Decision>();
  private version: unknown;

  constructor(private readonly maxDecisions = MAX_DECISIONS) {}

  /** The decision for `attributes` under the picture `version`, from `decide` when not known yet. */
  decide(attributes: RequestAttributes, version: unknown, decide: () => Decision): Decision {
    if (version !== this.version) {
      this.decisions = new Map();
      this.version = version;
    }
    const key = questionKey(attributes);
    const known = this.decisions.get(key);
    if (known !== undefined) return known;
    const decision = Object.freeze({ ...decide() });
    if (this.decisions.size >= this.maxDecisions) this.decisions = new Map();
    this.decisions.set(key, decision);
    return decision;
  }

  get size(): number {
    return this.decisions.size;
  }
}

/**
 * Every attribute RBAC reads, each prefixed by its length so that no two different questions
 * share a key whatever characters names hold (a certificate's CN may hold any). The uid, extra
 * and field selector are not among them: RBAC's rules do not look at those.
 */
export function questionKey(a: RequestAttributes): string {
  let key = `${a.resourceRequest ? 'r' : 'n'}${part(a.user.username)}${a.user.groups.length}`;
  for (const group of a.user.groups) key += part(group);
  return key + part(a.verb) + part(a.apiGroup) + part(a.resource) + part(a.subresource) + part(a.namespace) + part(a.name) + part(a.path);
}

function part(value: string): string {
  return `${value.length}:${value}`;
}
