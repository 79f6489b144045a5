// What each path may change of a CertificateSigningRequest, as Kubernetes' csr strategies:
//   create: the server writes who asks (spec.username/uid/groups/extra) from the request's
//           authenticated user, whatever the client sent, and no status;
//   update: metadata only (spec and status stay as stored);
//   /approval: only the Approved and Denied conditions;
//   /status: the certificate and the other conditions (Failed, ...), never Approved or Denied.
// Conditions get their timestamps here when the writer left them out.
import { isObject, type KubeObject } from '../../api/meta.js';
import { APPROVED, DENIED } from '../../api/validation/csr-validation.js';
import type { Strategy } from './strategies.js';
import { timestamp } from './metadata.js';

type Condition = Record<string, unknown>;

const isApproval = (condition: Condition) => condition['type'] === APPROVED || condition['type'] === DENIED;

function statusOf(csr: KubeObject): Record<string, unknown> {
  return isObject(csr['status']) ? csr['status'] : {};
}

function conditions(csr: KubeObject): Condition[] {
  const list = statusOf(csr)['conditions'];
  return Array.isArray(list) ? list.filter(isObject) : [];
}

function setStatus(csr: KubeObject, status: Record<string, unknown>): void {
  const kept = Object.fromEntries(Object.entries(status).filter(([, value]) => value !== undefined && !(Array.isArray(value) && value.length === 0)));
  if (Object.keys(kept).length > 0) csr['status'] = kept;
  else delete csr['status'];
}

/** New conditions get lastUpdateTime and lastTransitionTime now; a changed one a new lastUpdateTime. */
function stampConditions(list: Condition[], old: Condition[]): void {
  const now = timestamp();
  for (const condition of list) {
    const before = old.find((o) => o['type'] === condition['type']);
    condition['lastUpdateTime'] ??= now;
    if (!condition['lastTransitionTime']) {
      condition['lastTransitionTime'] = before && before['status'] === condition['status'] ? (before['lastTransitionTime'] ?? now) : now;
    }
  }
}

export const csrStrategy: Strategy = {
  prepareForCreate(csr, ctx) {
    delete csr['status'];
    if (!ctx.user) return; // the server's own writes say who asks themselves
    const spec = isObject(csr['spec']) ? csr['spec'] : (csr['spec'] = {});
    const { username, uid, groups, extra } = ctx.user;
    spec['username'] = username;
    if (uid) spec['uid'] = uid;
    else delete spec['uid'];
    spec['groups'] = [...groups];
    if (extra && Object.keys(extra).length > 0) spec['extra'] = structuredClone(extra);
    else delete spec['extra'];
  },
  prepareForUpdate(csr, old, ctx) {
    csr['spec'] = structuredClone(old['spec']);
    const before = conditions(old);
    if (ctx.subresource === 'approval') {
      const approval = conditions(csr).filter(isApproval);
      stampConditions(approval, before);
      setStatus(csr, { ...statusOf(old), conditions: [...before.filter((c) => !isApproval(c)), ...approval] });
    } else if (ctx.subresource === 'status') {
      const others = conditions(csr).filter((c) => !isApproval(c));
      stampConditions(others, before);
      setStatus(csr, { ...statusOf(csr), conditions: [...before.filter(isApproval), ...others] });
    } else {
      setStatus(csr, structuredClone(statusOf(old)));
    }
  },
};
