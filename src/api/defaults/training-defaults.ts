// Defaults of kubeflow.org/v1 training jobs, as the training operator's defaulting webhook sets
// them: replica types in canonical case, 1 replica, the framework's restart policy, its port on
// its container, cleanPodPolicy None. And of scheduling.x-k8s.io PodGroups.
import type { KubeObject } from '../meta.js';
import { isObject } from '../meta.js';
import { canonicalReplicaType, frameworkOfKind, type TrainingFramework } from '../training-frameworks.js';
import { ensureObject, setDefault, type Obj } from './util.js';

export function applyTrainingJobDefaults(job: KubeObject): void {
  const framework = frameworkOfKind(job.kind);
  if (!framework || !isObject(job['spec'])) return;
  const spec = job['spec'];
  const runPolicy = ensureObject(spec, 'runPolicy');
  setDefault(runPolicy, 'cleanPodPolicy', 'None');
  if (runPolicy['suspend'] === undefined || runPolicy['suspend'] === null) runPolicy['suspend'] = false;
  if (framework.kind === 'PyTorchJob') setDefault(spec, 'nprocPerNode', 'auto');
  if (framework.kind === 'TFJob' && (spec['successPolicy'] === undefined || spec['successPolicy'] === null)) spec['successPolicy'] = '';
  const replicaSpecs = spec[framework.replicaSpecsField];
  if (!isObject(replicaSpecs)) return;
  spec[framework.replicaSpecsField] = canonicalTypes(framework, replicaSpecs);
  for (const [type, replica] of Object.entries(spec[framework.replicaSpecsField] as Obj)) {
    if (!isObject(replica)) continue;
    setDefault(replica, 'replicas', 1);
    setDefault(replica, 'restartPolicy', framework.defaultRestartPolicy);
    if (framework.portedTypes.includes(type)) defaultPort(framework, replica);
  }
}

/** The same map with known replica types spelled canonically; unknown ones are left for validation. */
function canonicalTypes(framework: TrainingFramework, specs: Obj): Obj {
  const out: Obj = Object.create(null) as Obj;
  for (const [written, replica] of Object.entries(specs)) out[canonicalReplicaType(framework, written) ?? written] = replica;
  return { ...out };
}

function defaultPort(framework: TrainingFramework, replica: Obj): void {
  const podSpec = isObject(replica['template']) && isObject(replica['template']['spec']) ? replica['template']['spec'] : undefined;
  const containers = Array.isArray(podSpec?.['containers']) ? podSpec['containers'] : [];
  const container = containers.find((c): c is Obj => isObject(c) && c['name'] === framework.containerName);
  if (!container) return;
  const ports = Array.isArray(container['ports']) ? container['ports'] : [];
  if (ports.some((p) => isObject(p) && p['name'] === framework.portName)) return;
  container['ports'] = [...ports, { name: framework.portName, containerPort: framework.defaultPort, protocol: 'TCP' }];
}

export function applyPodGroupDefaults(group: KubeObject): void {
  setDefault(ensureObject(group as unknown as Obj, 'spec'), 'minMember', 1);
}
