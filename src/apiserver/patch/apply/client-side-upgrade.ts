// Moving from client-side to server-side apply, as kube-apiserver's field manager does it for
// kubectl (its lastAppliedManager and lastAppliedUpdater): only for the field manager
// `kubectl`, and only for objects that carry kubectl's last-applied-configuration annotation.
//
// - A conflict over fields the last client-side apply configured is no conflict: those fields
//   were kubectl's own (recorded under kubectl-client-side-apply), so `kubectl apply
//   --server-side` after `kubectl apply` takes them over instead of failing.
// - After such an apply the annotation is rewritten to the configuration just applied, so a
//   later client-side apply (or `--force-conflicts`) computes its patch from the right base.
import type { KubeObject } from '../../../api/meta.js';
import type { JsonSchema } from '../../../api/schema-nav.js';
import type { FieldScope } from './field-scope.js';
import { FieldSet } from './field-set.js';
import { objectFieldSet } from './object-fields.js';
import { isPlainObject } from './values.js';

export const LAST_APPLIED_ANNOTATION = 'kubectl.kubernetes.io/last-applied-configuration';
const KUBECTL_MANAGER = 'kubectl';

/** The fields kubectl's last client-side apply configured, which its server-side apply may take over. */
export function clientSideApplied(live: KubeObject | undefined, manager: string, schema: JsonSchema, scope: FieldScope): FieldSet | undefined {
  if (manager !== KUBECTL_MANAGER || live === undefined) return undefined;
  const text = live.metadata.annotations?.[LAST_APPLIED_ANNOTATION];
  if (typeof text !== 'string') return undefined;
  try {
    const lastApplied: unknown = JSON.parse(text);
    return isPlainObject(lastApplied) ? objectFieldSet(lastApplied as KubeObject, schema, scope) : undefined;
  } catch {
    // An annotation that is not a configuration (edited by hand) upgrades nothing.
    return undefined;
  }
}

/** Rewrites kubectl's annotation on `result` to the configuration just applied, where there is one. */
export function keepLastAppliedInStep(result: KubeObject, config: KubeObject, manager: string): void {
  const annotations = result.metadata.annotations;
  if (manager !== KUBECTL_MANAGER || typeof annotations?.[LAST_APPLIED_ANNOTATION] !== 'string') return;
  const { [LAST_APPLIED_ANNOTATION]: _own, ...others } = config.metadata.annotations ?? {};
  const metadata = { ...config.metadata, annotations: others };
  if (Object.keys(others).length === 0) delete (metadata as { annotations?: unknown }).annotations;
  annotations[LAST_APPLIED_ANNOTATION] = JSON.stringify({ ...config, metadata });
}
