// Defaults of the other core/v1 kinds.
import { isObject, type KubeObject } from '../meta.js';
import { ensureObject, setDefault, type Obj } from './util.js';

export function applyServiceDefaults(service: KubeObject): void {
  const spec = ensureObject(service, 'spec');
  setDefault(spec, 'type', 'ClusterIP');
  setDefault(spec, 'sessionAffinity', 'None');
  const type = spec['type'];
  if (Array.isArray(spec['ports'])) {
    for (const port of spec['ports']) {
      if (!isObject(port)) continue;
      setDefault(port, 'protocol', 'TCP');
      if (port['targetPort'] === undefined || port['targetPort'] === null || port['targetPort'] === 0 || port['targetPort'] === '') {
        port['targetPort'] = port['port'];
      }
    }
  }
  if (type === 'NodePort' || type === 'LoadBalancer') setDefault(spec, 'externalTrafficPolicy', 'Cluster');
  if (type === 'LoadBalancer') setDefault(spec, 'allocateLoadBalancerNodePorts', true);
  if (type !== 'ExternalName') {
    setDefault(spec, 'internalTrafficPolicy', 'Cluster');
    setDefault(spec, 'ipFamilyPolicy', 'SingleStack');
    if (!Array.isArray(spec['ipFamilies']) || spec['ipFamilies'].length === 0) spec['ipFamilies'] = ['IPv4'];
  }
  if (spec['sessionAffinity'] === 'ClientIP') {
    const clientIP = ensureObject(ensureObject(spec, 'sessionAffinityConfig'), 'clientIP');
    setDefault(clientIP, 'timeoutSeconds', 10800);
  }
}

/**
 * On update, a Service body without clusterIP / nodePorts keeps the ones allocated before
 * (Kubernetes does the same, so that `kubectl replace` of a manifest does not fail).
 */
export function preserveServiceAllocations(service: KubeObject, old: KubeObject): void {
  const spec = ensureObject(service, 'spec');
  const oldSpec: Obj = isObject(old['spec']) ? old['spec'] : {};
  if (spec['type'] === 'ExternalName' || oldSpec['type'] === 'ExternalName') return;
  for (const key of ['clusterIP', 'clusterIPs', 'ipFamilies', 'ipFamilyPolicy', 'healthCheckNodePort']) {
    const current = spec[key];
    if ((current === undefined || current === null || current === '' || (Array.isArray(current) && current.length === 0)) && oldSpec[key] !== undefined) {
      spec[key] = oldSpec[key];
    }
  }
  const oldPorts = Array.isArray(oldSpec['ports']) ? oldSpec['ports'].filter(isObject) : [];
  if (!Array.isArray(spec['ports'])) return;
  for (const port of spec['ports']) {
    if (!isObject(port) || (port['nodePort'] !== undefined && port['nodePort'] !== 0)) continue;
    const match = oldPorts.find((p) => p['port'] === port['port'] && (p['protocol'] ?? 'TCP') === (port['protocol'] ?? 'TCP'));
    if (match?.['nodePort'] !== undefined) port['nodePort'] = match['nodePort'];
  }
}

export function applyEndpointsDefaults(endpoints: KubeObject): void {
  if (!Array.isArray(endpoints['subsets'])) return;
  for (const subset of endpoints['subsets']) {
    if (!isObject(subset) || !Array.isArray(subset['ports'])) continue;
    for (const port of subset['ports']) if (isObject(port)) setDefault(port, 'protocol', 'TCP');
  }
}

/** type Opaque; stringData is folded into data (base64) and dropped, as the v1 conversion does. */
export function applySecretDefaults(secret: KubeObject): void {
  setDefault(secret, 'type', 'Opaque');
  const stringData = secret['stringData'];
  if (isObject(stringData)) {
    const data = ensureObject(secret, 'data');
    for (const [key, value] of Object.entries(stringData)) {
      if (typeof value === 'string') data[key] = Buffer.from(value, 'utf8').toString('base64');
    }
  }
  delete secret['stringData'];
}

export function applyNamespaceDefaults(namespace: KubeObject): void {
  const spec = ensureObject(namespace, 'spec');
  if (!Array.isArray(spec['finalizers'])) spec['finalizers'] = ['kubernetes'];
  setDefault(ensureObject(namespace, 'status'), 'phase', 'Active');
  // Lets namespace selectors pick a namespace by name.
  if (namespace.metadata.name) {
    namespace.metadata.labels = { ...(namespace.metadata.labels ?? {}), 'kubernetes.io/metadata.name': namespace.metadata.name };
  }
}

export function applyNodeDefaults(node: KubeObject): void {
  // podCIDR and podCIDRs say the same (the first of podCIDRs is podCIDR): a client that sets
  // one finds both, as Kubernetes' conversion fills them from each other.
  if (isObject(node['spec'])) {
    const spec = node['spec'];
    const list = Array.isArray(spec['podCIDRs']) ? spec['podCIDRs'] : [];
    if (typeof spec['podCIDR'] === 'string' && spec['podCIDR'] !== '' && list.length === 0) spec['podCIDRs'] = [spec['podCIDR']];
    else if ((spec['podCIDR'] === undefined || spec['podCIDR'] === '') && typeof list[0] === 'string') spec['podCIDR'] = list[0];
  }
  if (!isObject(node['status'])) return;
  const status = node['status'];
  if (!isObject(status['allocatable']) && isObject(status['capacity'])) status['allocatable'] = { ...status['capacity'] };
}
