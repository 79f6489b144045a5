// Defaults of apps/v1 StatefulSet (SetDefaults_StatefulSet, and the claim templates'
// SetDefaults_PersistentVolumeClaim) and of core/v1 ReplicationController
// (SetDefaults_ReplicationController).
import { isObject, type KubeObject } from '../meta.js';
import { defaultPodSpec } from './pod-defaults.js';
import { ensureObject, setDefault, type Obj } from './util.js';

function templateLabels(spec: Obj): Record<string, string> | undefined {
  const template = spec['template'];
  const metadata = isObject(template) ? template['metadata'] : undefined;
  const labels = isObject(metadata) ? metadata['labels'] : undefined;
  return isObject(labels) && Object.keys(labels).length > 0 ? (labels as Record<string, string>) : undefined;
}

/** An object without labels takes its template's, as both defaulters do. */
function defaultLabelsFromTemplate(object: KubeObject, spec: Obj): void {
  const labels = templateLabels(spec);
  if (labels && Object.keys(object.metadata.labels ?? {}).length === 0) object.metadata.labels = { ...labels };
}

function defaultTemplateSpec(spec: Obj): void {
  const template = spec['template'];
  if (isObject(template)) defaultPodSpec(ensureObject(template, 'spec'));
}

export function applyStatefulSetDefaults(statefulSet: KubeObject): void {
  const spec = ensureObject(statefulSet, 'spec');
  setDefault(spec, 'podManagementPolicy', 'OrderedReady');
  const strategy = ensureObject(spec, 'updateStrategy');
  setDefault(strategy, 'type', 'RollingUpdate');
  if (strategy['type'] === 'RollingUpdate') setDefault(ensureObject(strategy, 'rollingUpdate'), 'partition', 0);
  const retention = ensureObject(spec, 'persistentVolumeClaimRetentionPolicy');
  setDefault(retention, 'whenDeleted', 'Retain');
  setDefault(retention, 'whenScaled', 'Retain');
  setDefault(spec, 'replicas', 1);
  setDefault(spec, 'revisionHistoryLimit', 10);
  defaultLabelsFromTemplate(statefulSet, spec);
  defaultTemplateSpec(spec);
  const claims = spec['volumeClaimTemplates'];
  if (!Array.isArray(claims)) return;
  for (const claim of claims) {
    if (!isObject(claim)) continue;
    setDefault(claim, 'apiVersion', 'v1');
    setDefault(claim, 'kind', 'PersistentVolumeClaim');
    setDefault(ensureObject(claim, 'spec'), 'volumeMode', 'Filesystem');
    setDefault(ensureObject(claim, 'status'), 'phase', 'Pending');
  }
}

export function applyReplicationControllerDefaults(rc: KubeObject): void {
  const spec = ensureObject(rc, 'spec');
  const labels = templateLabels(spec);
  const selector = spec['selector'];
  if (labels && (!isObject(selector) || Object.keys(selector).length === 0)) spec['selector'] = { ...labels };
  defaultLabelsFromTemplate(rc, spec);
  setDefault(spec, 'replicas', 1);
  defaultTemplateSpec(spec);
}
