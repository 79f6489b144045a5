// Rules for one container that the schema cannot express (core/v1 validateContainers and friends).
import type { FieldError } from '../meta.js';
import { duplicate, forbidden, invalid, invalidEach, notFound, notSupported, required } from './field-errors.js';
import { isConfigMapKey, isDns1123Label, isDns1123Subdomain, isEnvVarName, isQualifiedName, isValidPortName, isValidPortNum } from './name-rules.js';
import { validateHandler, validateProbe } from './probe-validation.js';
import { validateResources } from './resources-validation.js';
import { arr, obj, objects, text, type Obj } from './util.js';

export type ContainerKind = 'container' | 'init' | 'ephemeral';

export interface PodContext {
  volumes: Set<string>;
  /** Container names seen so far in the pod (for duplicates across lists). */
  names: Set<string>;
  /** Port names seen so far in the pod. */
  portNames: Set<string>;
  hostNetwork: boolean;
}

export function validateContainer(container: Obj, path: string, kind: ContainerKind, pod: PodContext): FieldError[] {
  const errors: FieldError[] = [];
  const name = text(container['name']);
  if (name === '') errors.push(required(`${path}.name`));
  else {
    errors.push(...invalidEach(`${path}.name`, name, isDns1123Label(name)));
    if (pod.names.has(name)) errors.push(duplicate(`${path}.name`, name));
    pod.names.add(name);
  }
  if (text(container['image']).trim() === '') errors.push(required(`${path}.image`));
  errors.push(...validateRestartPolicy(container, path, kind));
  errors.push(...validatePorts(container, `${path}.ports`, pod));
  errors.push(...validateEnv(container, path));
  errors.push(...validateVolumeMounts(container, `${path}.volumeMounts`, pod.volumes));
  errors.push(...validateContainerProbes(container, path, kind));
  if (kind === 'ephemeral') errors.push(...ephemeralForbidden(container, path));
  else errors.push(...validateResources(container['resources'], `${path}.resources`));
  return errors;
}

function validateRestartPolicy(container: Obj, path: string, kind: ContainerKind): FieldError[] {
  if (container['restartPolicy'] === undefined) return [];
  if (kind === 'container') return [forbidden(`${path}.restartPolicy`, 'may not be set for non-init containers')];
  if (kind === 'ephemeral') return [forbidden(`${path}.restartPolicy`, 'cannot be set for an Ephemeral Container')];
  return [];
}

function validatePorts(container: Obj, path: string, pod: PodContext): FieldError[] {
  const errors: FieldError[] = [];
  objects(container['ports']).forEach((port, i) => {
    const at = `${path}[${i}]`;
    const name = text(port['name']);
    if (name !== '') {
      errors.push(...invalidEach(`${at}.name`, name, isValidPortName(name)));
      if (pod.portNames.has(name)) errors.push(duplicate(`${at}.name`, name));
      pod.portNames.add(name);
    }
    const containerPort = port['containerPort'];
    if (containerPort === 0 || containerPort === undefined) errors.push(required(`${at}.containerPort`));
    else if (typeof containerPort === 'number') errors.push(...invalidEach(`${at}.containerPort`, containerPort, isValidPortNum(containerPort)));
    const hostPort = port['hostPort'];
    if (typeof hostPort === 'number' && hostPort !== 0) {
      errors.push(...invalidEach(`${at}.hostPort`, hostPort, isValidPortNum(hostPort)));
      if (pod.hostNetwork && hostPort !== containerPort) {
        errors.push(invalid(`${at}.hostPort`, hostPort, 'must match `containerPort` when `hostNetwork` is true'));
      }
    }
  });
  return errors;
}

const ENV_FIELD_PATHS = [
  'metadata.name',
  'metadata.namespace',
  'metadata.uid',
  'spec.nodeName',
  'spec.serviceAccountName',
  'status.hostIP',
  'status.hostIPs',
  'status.podIP',
  'status.podIPs',
];
const RESOURCE_FIELDS = ['limits.cpu', 'limits.memory', 'limits.ephemeral-storage', 'requests.cpu', 'requests.memory', 'requests.ephemeral-storage'];

function validateEnv(container: Obj, path: string): FieldError[] {
  const errors: FieldError[] = [];
  objects(container['env']).forEach((env, i) => {
    const at = `${path}.env[${i}]`;
    const name = text(env['name']);
    if (name === '') errors.push(required(`${at}.name`));
    else errors.push(...invalidEach(`${at}.name`, name, isEnvVarName(name)));
    if (env['valueFrom'] !== undefined && env['valueFrom'] !== null) {
      if (text(env['value']) !== '') errors.push(invalid(`${at}.valueFrom`, '', 'may not be specified when `value` is not empty'));
      errors.push(...validateEnvSource(obj(env['valueFrom']), `${at}.valueFrom`));
    }
  });
  objects(container['envFrom']).forEach((source, i) => {
    const at = `${path}.envFrom[${i}]`;
    const prefix = text(source['prefix']);
    if (prefix !== '') errors.push(...invalidEach(`${at}.prefix`, prefix, isEnvVarName(prefix)));
    const count = ['configMapRef', 'secretRef'].filter((key) => source[key] !== undefined && source[key] !== null).length;
    if (count === 0) errors.push(invalid(at, '', 'must specify one of: `configMapRef` or `secretRef`'));
    if (count > 1) errors.push(forbidden(at, 'may not have more than one field specified at a time'));
    for (const key of ['configMapRef', 'secretRef']) {
      const name = text(obj(source[key])['name']);
      if (source[key] !== undefined) errors.push(...invalidEach(`${at}.${key}.name`, name, isDns1123Subdomain(name)));
    }
  });
  return errors;
}

function validateEnvSource(source: Obj, path: string): FieldError[] {
  const present = ['fieldRef', 'resourceFieldRef', 'configMapKeyRef', 'secretKeyRef'].filter((key) => source[key] !== undefined && source[key] !== null);
  if (present.length === 0) return [invalid(path, '', 'must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`')];
  if (present.length > 1) return [invalid(path, '', 'may not have more than one field specified at a time')];
  const kind = present[0] ?? '';
  const ref = obj(source[kind]);
  const at = `${path}.${kind}`;
  if (kind === 'fieldRef') {
    const fieldPath = text(ref['fieldPath']);
    if (fieldPath === '') return [required(`${at}.fieldPath`)];
    if (/^metadata\.(labels|annotations)\['.+'\]$/.test(fieldPath) || ENV_FIELD_PATHS.includes(fieldPath)) return [];
    return [
      notSupported(`${at}.fieldPath`, fieldPath, [
        ...ENV_FIELD_PATHS.slice(0, 3),
        "metadata.labels['<KEY>']",
        "metadata.annotations['<KEY>']",
        ...ENV_FIELD_PATHS.slice(3),
      ]),
    ];
  }
  if (kind === 'resourceFieldRef') {
    const resource = text(ref['resource']);
    if (resource === '') return [required(`${at}.resource`)];
    return RESOURCE_FIELDS.includes(resource) || /^(limits|requests)\.hugepages-/.test(resource)
      ? []
      : [notSupported(`${at}.resource`, resource, RESOURCE_FIELDS)];
  }
  const errors: FieldError[] = [];
  if (text(ref['name']) === '') errors.push(required(`${at}.name`));
  const key = text(ref['key']);
  if (key === '') errors.push(required(`${at}.key`));
  else errors.push(...invalidEach(`${at}.key`, key, isConfigMapKey(key)));
  return errors;
}

function validateVolumeMounts(container: Obj, path: string, volumes: Set<string>): FieldError[] {
  const errors: FieldError[] = [];
  const mountPaths = new Set<string>();
  objects(container['volumeMounts']).forEach((mount, i) => {
    const at = `${path}[${i}]`;
    const name = text(mount['name']);
    if (name === '') errors.push(required(`${at}.name`));
    else if (!volumes.has(name)) errors.push(notFound(`${at}.name`, name));
    const mountPath = text(mount['mountPath']);
    if (mountPath === '') errors.push(required(`${at}.mountPath`));
    else if (mountPaths.has(mountPath)) errors.push(invalid(`${at}.mountPath`, mountPath, 'must be unique'));
    mountPaths.add(mountPath);
    const subPath = text(mount['subPath']);
    if (subPath !== '' && text(mount['subPathExpr']) !== '') {
      errors.push(invalid(`${at}.subPathExpr`, mount['subPathExpr'], 'subPathExpr and subPath are mutually exclusive'));
    }
    if (subPath.startsWith('/')) errors.push(invalid(`${at}.subPath`, subPath, 'must be a relative path'));
    if (subPath.split('/').includes('..')) errors.push(invalid(`${at}.subPath`, subPath, "must not contain '..'"));
  });
  return errors;
}

function validateContainerProbes(container: Obj, path: string, kind: ContainerKind): FieldError[] {
  const errors: FieldError[] = [];
  const sidecar = kind === 'init' && container['restartPolicy'] === 'Always';
  for (const probe of ['livenessProbe', 'readinessProbe', 'startupProbe'] as const) {
    if (container[probe] === undefined || container[probe] === null) continue;
    if (kind === 'init' && !sidecar) {
      errors.push(forbidden(`${path}.${probe}`, 'may not be set for init containers without restartPolicy=Always'));
      continue;
    }
    errors.push(...validateProbe(obj(container[probe]), `${path}.${probe}`, probe));
  }
  const lifecycle = obj(container['lifecycle']);
  for (const hook of ['postStart', 'preStop'] as const) {
    if (lifecycle[hook] !== undefined && lifecycle[hook] !== null) {
      errors.push(...validateHandler(obj(lifecycle[hook]), `${path}.lifecycle.${hook}`, ['exec', 'httpGet', 'tcpSocket', 'sleep']));
    }
  }
  return errors;
}

function ephemeralForbidden(container: Obj, path: string): FieldError[] {
  const errors: FieldError[] = [];
  for (const key of ['ports', 'livenessProbe', 'readinessProbe', 'startupProbe', 'lifecycle', 'resizePolicy']) {
    const value = container[key];
    if (value !== undefined && value !== null && !(Array.isArray(value) && value.length === 0)) {
      errors.push(forbidden(`${path}.${key}`, 'cannot be set for an Ephemeral Container'));
    }
  }
  const resources = obj(container['resources']);
  if (Object.keys(obj(resources['limits'])).length + Object.keys(obj(resources['requests'])).length > 0) {
    errors.push(forbidden(`${path}.resources`, 'cannot be set for an Ephemeral Container'));
  }
  return errors;
}

/** Checks every qualified name in a list (used for scheduling gates and finalizers). */
export function validateQualifiedNames(values: unknown, path: string): FieldError[] {
  return arr(values).flatMap((value, i) => (typeof value === 'string' ? invalidEach(`${path}[${i}]`, value, isQualifiedName(value)) : []));
}
