// Defaults of PodSpec and Pod, as Kubernetes' SetDefaults_PodSpec / SetDefaults_Pod / SetDefaults_Container
// plus what its admission plugins add to every pod (service account, default tolerations; priority is admission's).
import { isObject, type KubeObject } from '../meta.js';
import { TAINT_NOT_READY, TAINT_UNREACHABLE } from '../scheduling/taints.js';
import { ensureObject, setDefault, type Obj } from './util.js';

const CONTAINER_LISTS = ['initContainers', 'containers', 'ephemeralContainers'] as const;

/** Kubernetes' rule: Always for the :latest tag or no tag, IfNotPresent otherwise (and for digests). */
export function defaultPullPolicy(image: string): 'Always' | 'IfNotPresent' {
  if (image.includes('@')) return 'IfNotPresent';
  const slash = image.lastIndexOf('/');
  const colon = image.lastIndexOf(':');
  const tag = colon > slash ? image.slice(colon + 1) : '';
  return tag === '' || tag === 'latest' ? 'Always' : 'IfNotPresent';
}

function defaultHandler(handler: unknown): void {
  if (!isObject(handler) || !isObject(handler['httpGet'])) return;
  setDefault(handler['httpGet'], 'path', '/');
  setDefault(handler['httpGet'], 'scheme', 'HTTP');
}

function defaultProbe(probe: unknown): void {
  if (!isObject(probe)) return;
  setDefault(probe, 'timeoutSeconds', 1);
  setDefault(probe, 'periodSeconds', 10);
  setDefault(probe, 'successThreshold', 1);
  setDefault(probe, 'failureThreshold', 3);
  defaultHandler(probe);
}

function defaultEnv(env: unknown): void {
  if (!Array.isArray(env)) return;
  for (const variable of env) {
    if (!isObject(variable) || !isObject(variable['valueFrom'])) continue;
    const source = variable['valueFrom'];
    if (isObject(source['fieldRef'])) setDefault(source['fieldRef'], 'apiVersion', 'v1');
    if (isObject(source['resourceFieldRef'])) setDefault(source['resourceFieldRef'], 'divisor', '0');
  }
}

export function defaultContainer(container: Obj, hostNetwork: boolean): void {
  setDefault(container, 'terminationMessagePath', '/dev/termination-log');
  setDefault(container, 'terminationMessagePolicy', 'File');
  if (typeof container['image'] === 'string') setDefault(container, 'imagePullPolicy', defaultPullPolicy(container['image']));
  setDefault(container, 'resources', {});
  if (Array.isArray(container['ports'])) {
    for (const port of container['ports']) {
      if (!isObject(port)) continue;
      setDefault(port, 'protocol', 'TCP');
      if (hostNetwork) setDefault(port, 'hostPort', port['containerPort']);
    }
  }
  defaultEnv(container['env']);
  for (const probe of ['livenessProbe', 'readinessProbe', 'startupProbe']) defaultProbe(container[probe]);
  if (isObject(container['lifecycle'])) {
    defaultHandler(container['lifecycle']['postStart']);
    defaultHandler(container['lifecycle']['preStop']);
  }
}

function defaultItems(items: unknown): void {
  if (!Array.isArray(items)) return;
  for (const item of items) if (isObject(item) && isObject(item['fieldRef'])) setDefault(item['fieldRef'], 'apiVersion', 'v1');
}

const VOLUME_SOURCES = ['hostPath', 'emptyDir', 'secret', 'configMap', 'persistentVolumeClaim', 'projected', 'downwardAPI', 'nfs', 'csi', 'ephemeral', 'image'];

export function defaultVolume(volume: Obj): void {
  if (!VOLUME_SOURCES.some((key) => volume[key] !== undefined && volume[key] !== null)) volume['emptyDir'] = {};
  for (const key of ['secret', 'configMap', 'downwardAPI', 'projected']) {
    if (isObject(volume[key])) setDefault(volume[key], 'defaultMode', 0o644);
  }
  if (isObject(volume['hostPath'])) setDefault(volume['hostPath'], 'type', '');
  if (isObject(volume['downwardAPI'])) defaultItems(volume['downwardAPI']['items']);
  const projected = isObject(volume['projected']) ? volume['projected']['sources'] : undefined;
  if (Array.isArray(projected)) {
    for (const source of projected) {
      if (!isObject(source)) continue;
      if (isObject(source['downwardAPI'])) defaultItems(source['downwardAPI']['items']);
      if (isObject(source['serviceAccountToken'])) setDefault(source['serviceAccountToken'], 'expirationSeconds', 3600);
    }
  }
}

/** Defaults shared by pods and pod templates. */
export function defaultPodSpec(spec: Obj): void {
  setDefault(spec, 'dnsPolicy', 'ClusterFirst');
  setDefault(spec, 'restartPolicy', 'Always');
  setDefault(spec, 'terminationGracePeriodSeconds', 30);
  setDefault(spec, 'securityContext', {});
  setDefault(spec, 'schedulerName', 'default-scheduler');
  // The deprecated serviceAccount mirrors serviceAccountName, as the v1 conversion does.
  if (typeof spec['serviceAccountName'] === 'string' && spec['serviceAccountName'] !== '') setDefault(spec, 'serviceAccount', spec['serviceAccountName']);
  else if (typeof spec['serviceAccount'] === 'string' && spec['serviceAccount'] !== '') spec['serviceAccountName'] = spec['serviceAccount'];
  const hostNetwork = spec['hostNetwork'] === true;
  for (const list of CONTAINER_LISTS) {
    const containers = spec[list];
    if (Array.isArray(containers)) for (const container of containers) if (isObject(container)) defaultContainer(container, hostNetwork);
  }
  if (Array.isArray(spec['volumes'])) for (const volume of spec['volumes']) if (isObject(volume)) defaultVolume(volume);
}

/** Requests default to limits for every resource that has only a limit. */
function defaultRequestsFromLimits(container: Obj): void {
  const resources = ensureObject(container, 'resources');
  if (!isObject(resources['limits'])) return;
  const requests = ensureObject(resources, 'requests');
  for (const [name, limit] of Object.entries(resources['limits'])) setDefault(requests, name, limit);
}

const DEFAULT_TOLERATIONS = [
  { key: TAINT_NOT_READY, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
  { key: TAINT_UNREACHABLE, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
];

function defaultTolerations(spec: Obj): void {
  const tolerations = Array.isArray(spec['tolerations']) ? spec['tolerations'] : [];
  for (const wanted of DEFAULT_TOLERATIONS) {
    const covered = tolerations.some(
      (t) =>
        isObject(t) &&
        (t['key'] === wanted.key || (t['key'] === undefined && t['operator'] === 'Exists')) &&
        (t['effect'] === undefined || t['effect'] === '' || t['effect'] === 'NoExecute'),
    );
    if (!covered) tolerations.push({ ...wanted });
  }
  spec['tolerations'] = tolerations;
}

export function applyPodDefaults(pod: KubeObject): void {
  const spec = ensureObject(pod, 'spec');
  defaultPodSpec(spec);
  setDefault(spec, 'enableServiceLinks', true);
  setDefault(spec, 'serviceAccountName', 'default');
  setDefault(spec, 'serviceAccount', spec['serviceAccountName']);
  // spec.priority and spec.preemptionPolicy come from the Priority admission step, as in
  // Kubernetes: a default here would hide whether the client set them.
  defaultTolerations(spec);
  for (const list of ['initContainers', 'containers'] as const) {
    const containers = spec[list];
    if (Array.isArray(containers)) for (const container of containers) if (isObject(container)) defaultRequestsFromLimits(container);
  }
  const status = ensureObject(pod, 'status');
  setDefault(status, 'phase', 'Pending');
  setDefault(status, 'qosClass', qosClassOf(spec));
}

/** Guaranteed when every container has equal cpu and memory requests and limits, BestEffort when none has any. */
export function qosClassOf(spec: Obj): 'Guaranteed' | 'Burstable' | 'BestEffort' {
  const containers = [
    ...(Array.isArray(spec['initContainers']) ? spec['initContainers'] : []),
    ...(Array.isArray(spec['containers']) ? spec['containers'] : []),
  ].filter(isObject);
  let any = false;
  let guaranteed = true;
  for (const container of containers) {
    const resources = isObject(container['resources']) ? container['resources'] : {};
    const requests = isObject(resources['requests']) ? resources['requests'] : {};
    const limits = isObject(resources['limits']) ? resources['limits'] : {};
    for (const name of ['cpu', 'memory']) {
      if (requests[name] !== undefined || limits[name] !== undefined) any = true;
      if (limits[name] === undefined || (requests[name] !== undefined && String(requests[name]) !== String(limits[name]))) guaranteed = false;
    }
  }
  if (!any) return 'BestEffort';
  return guaranteed ? 'Guaranteed' : 'Burstable';
}
