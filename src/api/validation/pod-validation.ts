// PodSpec rules beyond the schema (core/v1 ValidatePodSpec), shared by Pods and pod templates.
import type { FieldError } from '../meta.js';
import { VOLUME_SOURCE_FIELDS } from '../schemas/volume.js';
import { validateContainer, validateQualifiedNames, type ContainerKind, type PodContext } from './container-validation.js';
import { duplicate, forbidden, invalid, invalidEach, required } from './field-errors.js';
import { isDns1123Label, isDns1123Subdomain, isLabelValue, isQualifiedName, isValidIP } from './name-rules.js';
import { validateLabels } from './object-meta.js';
import { validateVolumeSource } from './volume-validation.js';
import { arr, obj, objects, text, type Obj } from './util.js';

export function validatePodSpec(spec: Obj, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const volumes = validateVolumes(spec['volumes'], `${path}.volumes`, errors);
  const pod: PodContext = { volumes, names: new Set(), portNames: new Set(), hostNetwork: spec['hostNetwork'] === true };
  const containers = objects(spec['containers']);
  if (containers.length === 0) errors.push(required(`${path}.containers`));
  const lists: Array<[string, ContainerKind]> = [
    ['initContainers', 'init'],
    ['containers', 'container'],
    ['ephemeralContainers', 'ephemeral'],
  ];
  for (const [key, kind] of lists) {
    objects(spec[key]).forEach((container, i) => errors.push(...validateContainer(container, `${path}.${key}[${i}]`, kind, pod)));
  }
  errors.push(...validateDns(spec, path));
  errors.push(...validateTolerations(spec['tolerations'], `${path}.tolerations`));
  errors.push(...validateLabels(spec['nodeSelector'], `${path}.nodeSelector`));
  errors.push(...validateHostNames(spec, path));
  errors.push(...validateMisc(spec, path));
  return errors;
}

function validateVolumes(value: unknown, path: string, errors: FieldError[]): Set<string> {
  const names = new Set<string>();
  objects(value).forEach((volume, i) => {
    const at = `${path}[${i}]`;
    const name = text(volume['name']);
    if (name === '') errors.push(required(`${at}.name`));
    else {
      errors.push(...invalidEach(`${at}.name`, name, isDns1123Label(name)));
      if (names.has(name)) errors.push(duplicate(`${at}.name`, name));
      names.add(name);
    }
    const sources = VOLUME_SOURCE_FIELDS.filter((key) => volume[key] !== undefined && volume[key] !== null);
    if (sources.length > 1) errors.push(forbidden(`${at}.${sources[1] ?? ''}`, 'may not specify more than 1 volume type'));
    const source = sources[0];
    if (source) errors.push(...validateVolumeSource(source, obj(volume[source]), `${at}.${source}`));
  });
  return names;
}

function validateDns(spec: Obj, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const config = spec['dnsConfig'];
  if (spec['dnsPolicy'] === 'None' && (config === undefined || config === null)) {
    errors.push(required(`${path}.dnsConfig`, 'must provide `dnsConfig` when `dnsPolicy` is None'));
  }
  const dns = obj(config);
  const nameservers = arr(dns['nameservers']);
  if (nameservers.length > 3) errors.push(invalid(`${path}.dnsConfig.nameservers`, nameservers, 'must not have more than 3 nameservers'));
  if (spec['dnsPolicy'] === 'None' && config && nameservers.length === 0) {
    errors.push(required(`${path}.dnsConfig.nameservers`, 'must provide at least one DNS nameserver when `dnsPolicy` is None'));
  }
  nameservers.forEach((server, i) => {
    if (typeof server === 'string' && !isValidIP(server)) errors.push(invalid(`${path}.dnsConfig.nameservers[${i}]`, server, 'must be a valid IP address'));
  });
  const searches = arr(dns['searches']);
  if (searches.length > 32) errors.push(invalid(`${path}.dnsConfig.searches`, searches, 'must not have more than 32 search paths'));
  return errors;
}

export function validateTolerations(value: unknown, path: string): FieldError[] {
  const errors: FieldError[] = [];
  objects(value).forEach((toleration, i) => {
    const at = `${path}[${i}]`;
    const key = text(toleration['key']);
    const operator = text(toleration['operator']) || 'Equal';
    const tolValue = text(toleration['value']);
    if (key !== '') errors.push(...invalidEach(`${at}.key`, key, isQualifiedName(key)));
    if (key === '' && operator !== 'Exists') {
      errors.push(invalid(`${at}.operator`, operator, 'operator must be Exists when `key` is empty, which means "match all values and all keys"'));
    }
    if (toleration['tolerationSeconds'] !== undefined && toleration['tolerationSeconds'] !== null && toleration['effect'] !== 'NoExecute') {
      errors.push(invalid(`${at}.effect`, text(toleration['effect']), "effect must be 'NoExecute' when `tolerationSeconds` is set"));
    }
    if (operator === 'Equal') errors.push(...invalidEach(`${at}.value`, tolValue, isLabelValue(tolValue)));
    else if (tolValue !== '') errors.push(invalid(`${at}.operator`, tolValue, "value must be empty when `operator` is 'Exists'"));
  });
  return errors;
}

function validateHostNames(spec: Obj, path: string): FieldError[] {
  const errors: FieldError[] = [];
  for (const key of ['hostname', 'subdomain']) {
    const value = text(spec[key]);
    if (value !== '') errors.push(...invalidEach(`${path}.${key}`, value, isDns1123Label(value)));
  }
  for (const key of ['serviceAccountName', 'priorityClassName', 'runtimeClassName', 'nodeName']) {
    const value = text(spec[key]);
    if (value !== '') errors.push(...invalidEach(`${path}.${key}`, value, isDns1123Subdomain(value)));
  }
  const account = text(spec['serviceAccountName']);
  const legacy = text(spec['serviceAccount']);
  if (account !== '' && legacy !== '' && account !== legacy) {
    errors.push(invalid(`${path}.serviceAccount`, legacy, 'must match `serviceAccountName` when both are set'));
  }
  objects(spec['hostAliases']).forEach((alias, i) => {
    const ip = text(alias['ip']);
    if (!isValidIP(ip)) errors.push(invalid(`${path}.hostAliases[${i}].ip`, ip, 'must be valid IP address'));
  });
  return errors;
}

function validateMisc(spec: Obj, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const deadline = spec['activeDeadlineSeconds'];
  if (typeof deadline === 'number' && (deadline < 1 || deadline > 2147483647)) {
    errors.push(invalid(`${path}.activeDeadlineSeconds`, deadline, 'must be between 1 and 2147483647, inclusive'));
  }
  const grace = spec['terminationGracePeriodSeconds'];
  if (typeof grace === 'number' && grace < 0) errors.push(invalid(`${path}.terminationGracePeriodSeconds`, grace, 'must be greater than or equal to 0'));
  objects(spec['imagePullSecrets']).forEach((secret, i) => {
    if (text(secret['name']) === '') errors.push(required(`${path}.imagePullSecrets[${i}].name`));
  });
  objects(spec['topologySpreadConstraints']).forEach((constraint, i) => {
    const skew = constraint['maxSkew'];
    if (typeof skew === 'number' && skew <= 0) errors.push(invalid(`${path}.topologySpreadConstraints[${i}].maxSkew`, skew, 'must be greater than zero'));
  });
  errors.push(
    ...validateQualifiedNames(
      objects(spec['schedulingGates']).map((gate) => gate['name']),
      `${path}.schedulingGates`,
    ),
  );
  if (spec['schedulingGates'] !== undefined && arr(spec['schedulingGates']).length > 0 && text(spec['nodeName']) !== '') {
    errors.push(forbidden(`${path}.nodeName`, 'cannot be set until all schedulingGates have been cleared'));
  }
  return errors;
}
