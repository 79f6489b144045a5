// Puts the default roles and bindings in place at server start, as kube-apiserver's
// rbac/bootstrap-roles post-start hook does: missing ones are created; existing ones whose
// autoupdate annotation is not "false" get back what they lost (rules, aggregation selectors,
// subjects, labels, annotations) and keep what users added. An operator who wants a default
// changed for good sets rbac.authorization.kubernetes.io/autoupdate: "false" on it.
import type { KubeObject } from '../../api/meta.js';
import { findResource } from '../../api/registry.js';
import type { ResourceDefinition } from '../../api/resource.js';
import { semanticEqual } from '../../util/json-equal.js';
import type { ObjectRegistry, WriteOptions } from '../../apiserver/registry/object-registry.js';
import { keyFor } from '../../apiserver/registry/keys.js';
import { AUTOUPDATE_ANNOTATION, defaultClusterRoleBindings, defaultClusterRoles } from './bootstrap-policy.js';
import { uncoveredRules } from './covers.js';
import { normalizeRules, ruleToJson } from './rules.js';

const RBAC = 'rbac.authorization.k8s.io';
const OPTIONS: WriteOptions = { dryRun: false, fieldManager: 'drover-rbac-bootstrap', fieldValidation: 'Strict' };
const ATTEMPTS = 3;

type Reconcile = (existing: KubeObject, expected: KubeObject) => KubeObject;

/** Existing labels and annotations win; expected ones that are missing come back. */
function reconcileMetadata(existing: KubeObject, expected: KubeObject): KubeObject {
  const out = structuredClone(existing);
  out.metadata.labels = { ...expected.metadata.labels, ...existing.metadata.labels };
  out.metadata.annotations = { ...expected.metadata.annotations, ...existing.metadata.annotations };
  return out;
}

const reconcileRole: Reconcile = (existing, expected) => {
  const out = reconcileMetadata(existing, expected);
  // Kubernetes appends the missing rules broken down, one verb × resource each.
  const missing = uncoveredRules(normalizeRules(existing['rules']), normalizeRules(expected['rules']));
  if (missing.length > 0) out['rules'] = [...(Array.isArray(existing['rules']) ? existing['rules'] : []), ...missing.map(ruleToJson)];
  const wanted = (expected['aggregationRule'] as { clusterRoleSelectors?: unknown[] } | undefined)?.clusterRoleSelectors ?? [];
  if (wanted.length > 0) {
    const have = ((existing['aggregationRule'] as { clusterRoleSelectors?: unknown[] } | undefined)?.clusterRoleSelectors ?? []).slice();
    for (const selector of wanted) if (!have.some((s) => semanticEqual(s, selector))) have.push(selector);
    out['aggregationRule'] = { clusterRoleSelectors: have };
  }
  return out;
};

const reconcileBinding: Reconcile = (existing, expected) => {
  const out = reconcileMetadata(existing, expected);
  const subjects = Array.isArray(existing['subjects']) ? existing['subjects'].slice() : [];
  for (const subject of expected['subjects'] as unknown[]) if (!subjects.some((s) => semanticEqual(s, subject))) subjects.push(subject);
  out['subjects'] = subjects;
  return out;
};

async function ensureOne(registry: ObjectRegistry, def: ResourceDefinition, expected: KubeObject, reconcile: Reconcile): Promise<void> {
  const name = expected.metadata.name!;
  for (let attempt = 1; ; attempt++) {
    try {
      const existing = await registry.store.get(keyFor(def, undefined, name));
      if (!existing) {
        await registry.create(def, undefined, structuredClone(expected), OPTIONS);
        return;
      }
      if (existing.metadata.annotations?.[AUTOUPDATE_ANNOTATION] === 'false') return;
      // A binding's roleRef cannot change: one pointing elsewhere is replaced, as Kubernetes does.
      if (def.kind === 'ClusterRoleBinding' && !semanticEqual(existing['roleRef'], expected['roleRef'])) {
        await registry.delete(def, undefined, name, { dryRun: false });
        await registry.create(def, undefined, structuredClone(expected), OPTIONS);
        return;
      }
      const wanted = reconcile(existing, expected);
      if (semanticEqual(wanted, existing)) return;
      await registry.update(def, undefined, name, wanted, OPTIONS);
      return;
    } catch (error) {
      // Servers sharing etcd start together: another one wrote it between our read and write.
      const code = (error as { code?: number }).code;
      if ((code === 409 || code === 404) && attempt < ATTEMPTS) continue;
      throw error;
    }
  }
}

/** Creates or reconciles the default ClusterRoles and ClusterRoleBindings. */
export async function ensureDefaultRbac(registry: ObjectRegistry): Promise<void> {
  const roles = findResource(RBAC, 'v1', 'clusterroles')!;
  const bindings = findResource(RBAC, 'v1', 'clusterrolebindings')!;
  for (const role of defaultClusterRoles()) await ensureOne(registry, roles, role, reconcileRole);
  for (const binding of defaultClusterRoleBindings()) await ensureOne(registry, bindings, binding, reconcileBinding);
}
