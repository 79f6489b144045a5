// Rules of certificates.k8s.io/v1 CertificateSigningRequests beyond the schema, as Kubernetes'
// pkg/apis/certificates/validation has them: the request must parse as a PKCS#10 request, the
// signer is a qualified name, the spec never changes, and of the conditions Approved, Denied and
// Failed each comes at most once, with status True, and Approved and Denied exclude each other;
// once set, neither they nor the certificate may change.
import type { FieldError, KubeObject } from '../meta.js';
import { parseCertificateRequest } from '../../auth/pki/certificates.js';
import { duplicate, forbidden, invalid, notSupported, required } from './field-errors.js';
import { isDns1123Subdomain } from './name-rules.js';
import { arr, obj, objects, text } from './util.js';
import { semanticEqual } from '../../util/json-equal.js';
import { KEY_USAGES } from '../schemas/certificates.js';

export const APPROVED = 'Approved';
export const DENIED = 'Denied';
export const FAILED = 'Failed';
const MIN_EXPIRATION_SECONDS = 600;

/** The PEM text of a []byte field (base64 in JSON); undefined when it is not base64. */
export function decodeBytes(value: unknown): string | undefined {
  if (typeof value !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(value.replace(/\s+/g, ''))) return undefined;
  return Buffer.from(value, 'base64').toString('utf8');
}

function validateSignerName(value: string, at: string): FieldError[] {
  if (value === '') return [required(at, '')];
  const slash = value.indexOf('/');
  if (slash <= 0 || slash === value.length - 1) {
    return [invalid(at, value, "must be a fully qualified domain and path of the form 'example.com/signer-name'")];
  }
  const domain = value.slice(0, slash);
  const problems = isDns1123Subdomain(domain);
  if (!domain.includes('.')) problems.push('should be a domain with at least two segments separated by dots');
  return problems.map((problem) => invalid(at, domain, problem));
}

function validateSpec(spec: Record<string, unknown>): FieldError[] {
  const errors: FieldError[] = [];
  const pem = decodeBytes(spec['request']);
  if (!spec['request']) errors.push(required('spec.request', ''));
  else if (pem === undefined || !pem.includes('-----BEGIN CERTIFICATE REQUEST-----')) {
    errors.push(invalid('spec.request', '<certificate request>', 'PEM block type must be CERTIFICATE REQUEST'));
  } else {
    try {
      parseCertificateRequest(pem);
    } catch (error) {
      errors.push(invalid('spec.request', '<certificate request>', `not a certificate request: ${(error as Error).message}`));
    }
  }
  errors.push(...validateSignerName(text(spec['signerName']), 'spec.signerName'));
  const expiration = spec['expirationSeconds'];
  if (typeof expiration === 'number' && expiration < MIN_EXPIRATION_SECONDS) {
    errors.push(invalid('spec.expirationSeconds', expiration, `may not specify a duration less than ${MIN_EXPIRATION_SECONDS} seconds`));
  }
  const usages = arr(spec['usages']);
  if (usages.length === 0) errors.push(required('spec.usages', 'usages must be provided'));
  const seen = new Set<unknown>();
  usages.forEach((usage, i) => {
    if (!(KEY_USAGES as readonly unknown[]).includes(usage)) errors.push(notSupported(`spec.usages[${i}]`, usage, KEY_USAGES));
    if (seen.has(usage)) errors.push(duplicate(`spec.usages[${i}]`, usage));
    seen.add(usage);
  });
  return errors;
}

function validateConditions(conditions: Record<string, unknown>[]): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  conditions.forEach((condition, i) => {
    const at = `status.conditions[${i}]`;
    const type = text(condition['type']);
    if (type === '') errors.push(required(`${at}.type`, ''));
    const status = text(condition['status']);
    if (type === APPROVED || type === DENIED || type === FAILED) {
      if (seen.has(type)) errors.push(duplicate(`${at}.type`, type));
      if (status !== 'True') errors.push(notSupported(`${at}.status`, status, ['True']));
    } else if (!['True', 'False', 'Unknown'].includes(status)) {
      errors.push(notSupported(`${at}.status`, status, ['False', 'True', 'Unknown']));
    }
    seen.add(type);
  });
  if (seen.has(APPROVED) && seen.has(DENIED)) {
    errors.push(invalid('status.conditions', DENIED, 'Approved and Denied conditions are mutually exclusive'));
  }
  return errors;
}

export function conditionsOf(csr: KubeObject): Record<string, unknown>[] {
  return objects(obj(csr['status'])['conditions']);
}

export function hasCondition(csr: KubeObject, type: string): boolean {
  return conditionsOf(csr).some((condition) => condition['type'] === type);
}

export function validateCertificateSigningRequest(csr: KubeObject, old?: KubeObject): FieldError[] {
  const spec = obj(csr['spec']);
  const errors = validateSpec(spec);
  const conditions = conditionsOf(csr);
  errors.push(...validateConditions(conditions));
  const certificate = obj(csr['status'])['certificate'];
  if (certificate) {
    const pem = decodeBytes(certificate);
    if (pem === undefined || !pem.includes('-----BEGIN CERTIFICATE-----')) {
      errors.push(invalid('status.certificate', '<certificate data>', 'must contain at least one CERTIFICATE PEM block'));
    }
    if (!hasCondition(csr, APPROVED) || hasCondition(csr, DENIED) || hasCondition(csr, FAILED)) {
      errors.push(forbidden('status.certificate', 'may only be set on an approved request that has not failed'));
    }
  }
  if (!old) return errors;
  if (!semanticEqual(spec, obj(old['spec']))) errors.push(invalid('spec', '<spec>', 'field is immutable'));
  for (const type of [APPROVED, DENIED, FAILED]) {
    const before = conditionsOf(old).find((condition) => condition['type'] === type);
    const after = conditions.find((condition) => condition['type'] === type);
    if (before && !semanticEqual(before, after)) errors.push(forbidden('status.conditions', `updates may not remove or change the ${type} condition`));
  }
  const oldCertificate = obj(old['status'])['certificate'];
  if (oldCertificate && oldCertificate !== certificate) {
    errors.push(invalid('status.certificate', '<certificate data>', 'updates may not modify existing certificate content'));
  }
  return errors;
}

/** Conditions without a status get True, as Kubernetes defaults them. */
export function applyCsrDefaults(csr: KubeObject): void {
  for (const condition of conditionsOf(csr)) if (!condition['status']) condition['status'] = 'True';
}
