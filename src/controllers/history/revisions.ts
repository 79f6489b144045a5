// ControllerRevisions as the DaemonSet and StatefulSet controllers keep them (Kubernetes'
// controller history): each distinct pod template is one revision named `<owner>-<hash>`, whose
// data is the strategic merge patch that puts the template back (what `kubectl rollout undo`
// sends) and whose number grows with every change, a template used again included. Pure.
import type { KubeObject, OwnerReference } from '../../api/meta.js';
import { canonicalJson, safeHash } from '../../util/object-hash.js';

export interface ControllerRevision extends KubeObject {
  data?: unknown;
  revision: number;
}

/** A pod template, as the owner's spec holds it. */
export type Template = object;

/** Owner name prefixes are cut so that `<prefix>-<hash>` stays within a 253-character name. */
const MAX_PREFIX = 223;

/** `{spec: {template: {..., $patch: replace}}}`: applied to the owner, it restores the template whole. */
export function revisionData(template: Template | undefined): Record<string, unknown> {
  return { spec: { template: { ...(template ?? {}), $patch: 'replace' } } };
}

/** The template a revision restores. */
export function templateOf(revision: Readonly<ControllerRevision>): Record<string, unknown> | undefined {
  const spec = (revision.data as { spec?: { template?: Record<string, unknown> } } | undefined)?.spec;
  if (!spec?.template) return undefined;
  const { $patch: _directive, ...template } = spec.template;
  return template;
}

/** The template's hash: the DaemonSet's pod label, and the suffix of every revision name. */
export function revisionHash(template: Template | undefined, collisionCount?: number): string {
  return safeHash(canonicalJson(template ?? {}), collisionCount);
}

export function revisionName(ownerName: string, hash: string): string {
  return `${ownerName.slice(0, MAX_PREFIX)}-${hash}`;
}

export function sameData(a: Readonly<ControllerRevision>, data: unknown): boolean {
  return canonicalJson(a.data) === canonicalJson(data);
}

export function nextRevisionNumber(revisions: readonly Readonly<ControllerRevision>[]): number {
  let max = 0;
  for (const revision of revisions) max = Math.max(max, revision.revision ?? 0);
  return max + 1;
}

export function byRevision(a: Readonly<ControllerRevision>, b: Readonly<ControllerRevision>): number {
  return (a.revision ?? 0) - (b.revision ?? 0) || (a.metadata.name ?? '').localeCompare(b.metadata.name ?? '');
}

/**
 * The revisions to delete: of those no live pod (nor the owner's status) uses, all but the
 * `limit` newest, as Kubernetes' cleanupHistory / truncateHistory.
 */
export function revisionsToPrune(
  revisions: readonly Readonly<ControllerRevision>[],
  limit: number,
  inUse: ReadonlySet<string>,
): Readonly<ControllerRevision>[] {
  const idle = revisions.filter((r) => !inUse.has(r.metadata.name ?? '')).sort(byRevision);
  return idle.slice(0, Math.max(0, idle.length - Math.max(0, limit)));
}

/**
 * A new revision of `owner`: labelled as its template (so kubectl finds it by the owner's selector)
 * plus the hash, and annotated as the owner (kubectl rollout history prints its change-cause).
 */
export function newRevision(
  owner: Readonly<KubeObject>,
  controllerRef: OwnerReference,
  template: Template | undefined,
  hashLabel: string,
  hash: string,
  revision: number,
): ControllerRevision {
  const templateLabels = (template as { metadata?: { labels?: Record<string, string> } } | undefined)?.metadata?.labels ?? {};
  return {
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: {
      name: revisionName(owner.metadata.name ?? '', hash),
      namespace: owner.metadata.namespace ?? 'default',
      labels: { ...templateLabels, [hashLabel]: hash },
      ...(owner.metadata.annotations ? { annotations: { ...owner.metadata.annotations } } : {}),
      ownerReferences: [controllerRef],
    },
    data: revisionData(template),
    revision,
  };
}
