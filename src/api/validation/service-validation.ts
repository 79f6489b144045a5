// core/v1 Service and Endpoints rules.
import type { FieldError, KubeObject } from '../meta.js';
import { duplicate, forbidden, invalid, invalidEach, required } from './field-errors.js';
import { isDns1123Label, isDns1123Subdomain, isValidIP, isValidPortNum } from './name-rules.js';
import { validatePortRef } from './probe-validation.js';
import { validateLabels } from './object-meta.js';
import { arr, obj, objects, text, type Obj } from './util.js';

export function validateService(service: KubeObject, old?: KubeObject): FieldError[] {
  const spec = obj(service['spec']);
  const type = text(spec['type']) || 'ClusterIP';
  const clusterIP = text(spec['clusterIP']);
  const errors: FieldError[] = [];
  const ports = objects(spec['ports']);
  if (type === 'ExternalName') errors.push(...validateExternalName(spec));
  else if (ports.length === 0 && clusterIP !== 'None') errors.push(required('spec.ports'));
  errors.push(...validateServicePorts(ports, type, clusterIP));
  errors.push(...validateClusterIPs(spec, clusterIP));
  errors.push(...validateLabels(spec['selector'], 'spec.selector'));
  const policy = spec['externalTrafficPolicy'];
  if (policy !== undefined && policy !== null && policy !== '' && type !== 'NodePort' && type !== 'LoadBalancer') {
    errors.push(invalid('spec.externalTrafficPolicy', policy, "may only be set when `type` is 'NodePort' or 'LoadBalancer'"));
  }
  const timeout = obj(obj(spec['sessionAffinityConfig'])['clientIP'])['timeoutSeconds'];
  if (typeof timeout === 'number' && (timeout <= 0 || timeout > 86400)) {
    errors.push(invalid('spec.sessionAffinityConfig.clientIP.timeoutSeconds', timeout, 'must be greater than 0 and less than 86400'));
  }
  arr(spec['externalIPs']).forEach((ip, i) => {
    if (typeof ip === 'string' && !isValidIP(ip)) errors.push(invalid(`spec.externalIPs[${i}]`, ip, 'must be a valid IP address'));
  });
  if (old) errors.push(...validateServiceUpdate(spec, obj(old['spec'])));
  return errors;
}

function validateExternalName(spec: Obj): FieldError[] {
  const name = text(spec['externalName']).replace(/\.$/, '');
  if (name === '') return [required('spec.externalName')];
  const errors = invalidEach('spec.externalName', name, isDns1123Subdomain(name));
  const clusterIP = text(spec['clusterIP']);
  if (clusterIP !== '') errors.push(forbidden('spec.clusterIP', 'may not be set for ExternalName services'));
  return errors;
}

function validateServicePorts(ports: Obj[], type: string, clusterIP: string): FieldError[] {
  const errors: FieldError[] = [];
  const names = new Set<string>();
  const keys = new Set<string>();
  ports.forEach((port, i) => {
    const at = `spec.ports[${i}]`;
    const name = text(port['name']);
    if (name === '' && ports.length > 1) errors.push(required(`${at}.name`));
    if (name !== '') {
      errors.push(...invalidEach(`${at}.name`, name, isDns1123Label(name)));
      if (names.has(name)) errors.push(duplicate(`${at}.name`, name));
      names.add(name);
    }
    const number = port['port'];
    if (typeof number === 'number') errors.push(...invalidEach(`${at}.port`, number, isValidPortNum(number)));
    const key = `${String(number)}/${text(port['protocol']) || 'TCP'}`;
    if (keys.has(key)) errors.push(duplicate(at, { port: number, protocol: text(port['protocol']) || 'TCP' }));
    keys.add(key);
    if (port['targetPort'] !== undefined && port['targetPort'] !== 0) errors.push(...validatePortRef(port['targetPort'], `${at}.targetPort`));
    const nodePort = port['nodePort'];
    if (typeof nodePort === 'number' && nodePort !== 0) {
      if (type !== 'NodePort' && type !== 'LoadBalancer') errors.push(forbidden(`${at}.nodePort`, `may not be used when \`type\` is '${type}'`));
      else errors.push(...invalidEach(`${at}.nodePort`, nodePort, isValidPortNum(nodePort)));
    }
    if (clusterIP === 'None' && typeof nodePort === 'number' && nodePort !== 0) {
      errors.push(forbidden(`${at}.nodePort`, 'may not be used with a headless service'));
    }
  });
  return errors;
}

function validateClusterIPs(spec: Obj, clusterIP: string): FieldError[] {
  const errors: FieldError[] = [];
  if (clusterIP !== '' && clusterIP !== 'None' && !isValidIP(clusterIP)) {
    errors.push(invalid('spec.clusterIP', clusterIP, "must be empty, 'None', or a valid IP address"));
  }
  const clusterIPs = arr(spec['clusterIPs']);
  if (clusterIPs.length > 0 && clusterIP !== '' && clusterIPs[0] !== clusterIP) {
    errors.push(invalid('spec.clusterIPs', clusterIPs, 'first value must match `clusterIP`'));
  }
  if (clusterIPs.length > 2) errors.push(invalid('spec.clusterIPs', clusterIPs, 'may only hold up to 2 values'));
  return errors;
}

function validateServiceUpdate(spec: Obj, oldSpec: Obj): FieldError[] {
  const before = text(oldSpec['clusterIP']);
  const after = text(spec['clusterIP']);
  const switchingExternal = spec['type'] === 'ExternalName' || oldSpec['type'] === 'ExternalName';
  if (switchingExternal || before === '' || after === before) return [];
  return [invalid('spec.clusterIPs[0]', [after], 'may not change once set')];
}

export function validateEndpoints(endpoints: KubeObject): FieldError[] {
  const errors: FieldError[] = [];
  objects(endpoints['subsets']).forEach((subset, i) => {
    const at = `subsets[${i}]`;
    for (const key of ['addresses', 'notReadyAddresses']) {
      objects(subset[key]).forEach((address, j) => {
        const ip = text(address['ip']);
        if (!isValidIP(ip)) errors.push(invalid(`${at}.${key}[${j}].ip`, ip, 'must be a valid IP address'));
      });
    }
    const portNames = new Set<string>();
    const ports = objects(subset['ports']);
    ports.forEach((port, j) => {
      const name = text(port['name']);
      if (ports.length > 1 && name === '') errors.push(required(`${at}.ports[${j}].name`));
      if (name !== '') {
        errors.push(...invalidEach(`${at}.ports[${j}].name`, name, isDns1123Label(name)));
        if (portNames.has(name)) errors.push(duplicate(`${at}.ports[${j}].name`, name));
        portNames.add(name);
      }
      if (typeof port['port'] === 'number') errors.push(...invalidEach(`${at}.ports[${j}].port`, port['port'], isValidPortNum(port['port'])));
    });
  });
  return errors;
}
