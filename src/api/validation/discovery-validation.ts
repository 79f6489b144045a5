// discovery.k8s.io/v1 EndpointSlice rules, as Kubernetes' pkg/apis/discovery/validation. The
// schema walk has already reported wrong types, a missing addressType and unknown enum values.
import type { FieldError, KubeObject } from '../meta.js';
import { duplicate, invalid, invalidEach, required, tooMany } from './field-errors.js';
import { isDns1123Label, isDns1123Subdomain, isIPv4, isIPv6, isLabelValue, isQualifiedName } from './name-rules.js';
import { validateLabels } from './object-meta.js';
import { arr, obj, objects, text, type Obj } from './util.js';

const MAX_ENDPOINTS = 1000;
const MAX_ADDRESSES = 100;
const MAX_PORTS = 100;
const MAX_TOPOLOGY_LABELS = 16;
const MAX_HINTS = 8;

export function validateEndpointSlice(slice: KubeObject, old?: KubeObject): FieldError[] {
  const addressType = text(slice['addressType']);
  const errors = [...validateEndpoints(slice['endpoints'], addressType), ...validatePorts(slice['ports'])];
  if (old && addressType !== text(old['addressType'])) {
    errors.push(invalid('addressType', addressType, 'field is immutable'));
  }
  return errors;
}

function validateEndpoints(value: unknown, addressType: string): FieldError[] {
  const endpoints = objects(value);
  if (endpoints.length > MAX_ENDPOINTS) return [tooMany('endpoints', endpoints.length, MAX_ENDPOINTS)];
  const errors: FieldError[] = [];
  endpoints.forEach((endpoint, i) => errors.push(...validateEndpoint(endpoint, addressType, `endpoints[${i}]`)));
  return errors;
}

function validateEndpoint(endpoint: Obj, addressType: string, at: string): FieldError[] {
  const errors: FieldError[] = [];
  const addresses = arr(endpoint['addresses']);
  if (addresses.length === 0) errors.push(required(`${at}.addresses`, 'must contain at least 1 address'));
  else if (addresses.length > MAX_ADDRESSES) errors.push(tooMany(`${at}.addresses`, addresses.length, MAX_ADDRESSES));
  addresses.forEach((address, i) => {
    if (typeof address === 'string') errors.push(...validateAddress(address, addressType, `${at}.addresses[${i}]`));
  });
  const topology = obj(endpoint['deprecatedTopology']);
  if (Object.keys(topology).length > MAX_TOPOLOGY_LABELS) errors.push(tooMany(`${at}.deprecatedTopology`, Object.keys(topology).length, MAX_TOPOLOGY_LABELS));
  errors.push(...validateLabels(endpoint['deprecatedTopology'], `${at}.deprecatedTopology`));
  if (typeof endpoint['hostname'] === 'string') errors.push(...invalidEach(`${at}.hostname`, endpoint['hostname'], isDns1123Label(endpoint['hostname'])));
  if (typeof endpoint['nodeName'] === 'string') errors.push(...invalidEach(`${at}.nodeName`, endpoint['nodeName'], isDns1123Subdomain(endpoint['nodeName'])));
  if (endpoint['hints'] !== undefined && endpoint['hints'] !== null) errors.push(...validateHints(obj(endpoint['hints']), `${at}.hints`));
  return errors;
}

function validateAddress(address: string, addressType: string, at: string): FieldError[] {
  switch (addressType) {
    case 'IPv4':
      return isIPv4(address) ? nonSpecialIP(address, at) : [invalid(at, address, 'must be a valid IPv4 address')];
    case 'IPv6':
      return isIPv6(address) ? nonSpecialIP(address, at) : [invalid(at, address, 'must be a valid IPv6 address')];
    case 'FQDN':
      return fullyQualifiedDomainName(address, at);
    default:
      // An unknown type was reported by the schema; its addresses cannot be judged.
      return [];
  }
}

/**
 * Unspecified and link-local addresses make no sense as endpoints (Kubernetes'
 * ValidateNonSpecialIP). Unlike Kubernetes, loopback is allowed: on a loopback-only node the
 * process runtime and host-network pods have 127.0.0.1 as their pod IP, and core/v1 Endpoints
 * accept it too.
 */
export function nonSpecialIP(address: string, at: string): FieldError[] {
  const bytes = ipBytes(address);
  if (!bytes) return [invalid(at, address, 'must be a valid IP address')];
  const errors: FieldError[] = [];
  const v4 = asIPv4(bytes);
  if (bytes.every((b) => b === 0) || (v4 && v4.every((b) => b === 0))) errors.push(invalid(at, address, `may not be unspecified (${address})`));
  if ((v4 && v4[0] === 169 && v4[1] === 254) || (!v4 && bytes[0] === 0xfe && ((bytes[1] ?? 0) & 0xc0) === 0x80)) {
    errors.push(invalid(at, address, 'may not be in the link-local range (169.254.0.0/16, fe80::/10)'));
  }
  if ((v4 && v4[0] === 224 && v4[1] === 0 && v4[2] === 0) || (!v4 && bytes[0] === 0xff && bytes[1] === 0x02)) {
    errors.push(invalid(at, address, 'may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)'));
  }
  return errors;
}

/** The 16 bytes of an IP (IPv4 as IPv4-mapped IPv6), or undefined. */
function ipBytes(address: string): number[] | undefined {
  if (isIPv4(address)) return [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, ...address.split('.').map(Number)];
  if (!isIPv6(address)) return undefined;
  // An embedded IPv4 tail (::ffff:10.0.0.1) becomes two hex groups.
  const hex = address.replace(
    /(\d+)\.(\d+)\.(\d+)\.(\d+)$/,
    (_, a: string, b: string, c: string, d: string) => `${((Number(a) << 8) | Number(b)).toString(16)}:${((Number(c) << 8) | Number(d)).toString(16)}`,
  );
  const [head = '', rest] = hex.split('::');
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((group) => parseInt(group, 16)));
  const before = parse(head);
  const after = parse(rest ?? '');
  const groups = rest === undefined ? before : [...before, ...Array<number>(8 - before.length - after.length).fill(0), ...after];
  return groups.flatMap((group) => [group >> 8, group & 0xff]);
}

function asIPv4(bytes: number[]): number[] | undefined {
  const mapped = bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff;
  return mapped ? bytes.slice(12) : undefined;
}

function fullyQualifiedDomainName(address: string, at: string): FieldError[] {
  if (address === '') return [required(at)];
  const name = address.endsWith('.') ? address.slice(0, -1) : address;
  const subdomain = isDns1123Subdomain(name);
  if (subdomain.length > 0) return [invalid(at, name, subdomain.join(','))];
  const labels = name.split('.');
  if (labels.length < 2) return [invalid(at, name, 'should be a domain with at least two segments separated by dots')];
  for (const label of labels) {
    const problems = isDns1123Label(label);
    if (problems.length > 0) return [invalid(at, label, problems.join(','))];
  }
  return [];
}

function validateHints(hints: Obj, at: string): FieldError[] {
  const errors: FieldError[] = [];
  const lists: Array<[string, (name: string) => string[]]> = [
    ['forZones', isLabelValue],
    ['forNodes', isDns1123Subdomain],
  ];
  for (const [key, check] of lists) {
    const entries = objects(hints[key]);
    if (entries.length > MAX_HINTS) {
      errors.push(tooMany(`${at}.${key}`, entries.length, MAX_HINTS));
      continue;
    }
    const seen = new Set<string>();
    entries.forEach((entry, i) => {
      const path = `${at}.${key}[${i}].name`;
      const name = text(entry['name']);
      if (seen.has(name)) errors.push(duplicate(path, name));
      seen.add(name);
      errors.push(...invalidEach(path, name, check(name)));
    });
  }
  return errors;
}

function validatePorts(value: unknown): FieldError[] {
  const ports = objects(value);
  if (ports.length > MAX_PORTS) return [tooMany('ports', ports.length, MAX_PORTS)];
  const errors: FieldError[] = [];
  const names = new Set<string>();
  ports.forEach((port, i) => {
    const at = `ports[${i}]`;
    const name = text(port['name']);
    if (name !== '') errors.push(...invalidEach(`${at}.name`, name, isDns1123Label(name)));
    if (names.has(name)) errors.push(duplicate(`${at}.name`, name));
    names.add(name);
    const number = port['port'];
    if (typeof number === 'number' && (number < 0 || number > 65535)) {
      errors.push(invalid(`${at}.port`, number, 'must be between 0 and 65535, inclusive'));
    }
    if (typeof port['appProtocol'] === 'string') {
      errors.push(...invalidEach(`${at}.appProtocol`, port['appProtocol'], isQualifiedName(port['appProtocol'])));
    }
  });
  return errors;
}
