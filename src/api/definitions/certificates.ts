// ResourceDefinitions of certificates.k8s.io/v1: CertificateSigningRequest (short name csr),
// cluster-scoped, with the status subresource (the signer writes the certificate there) and the
// approval subresource (`kubectl certificate approve|deny` writes the Approved or Denied
// condition there). The server-side parts: src/apiserver/registry/strategies.ts (who asked,
// what each path may change) and src/auth/csr/ (approver, signer, admission).
import type { ResourceDefinition } from '../resource.js';
import { printerFor } from '../printers/index.js';
import { CERTIFICATES_GROUP, CertificateSigningRequestSchema } from '../schemas/certificates.js';
import { applyCsrDefaults, validateCertificateSigningRequest } from '../validation/csr-validation.js';
import { ALL_VERBS, field } from './helpers.js';

const certificateSigningRequests: ResourceDefinition = {
  group: CERTIFICATES_GROUP,
  version: 'v1',
  kind: 'CertificateSigningRequest',
  listKind: 'CertificateSigningRequestList',
  plural: 'certificatesigningrequests',
  singular: 'certificatesigningrequest',
  namespaced: false,
  shortNames: ['csr'],
  categories: [],
  verbs: ALL_VERBS,
  subresources: { status: true, approval: true },
  schema: CertificateSigningRequestSchema,
  applyDefaults: applyCsrDefaults,
  validate: validateCertificateSigningRequest,
  table: printerFor('CertificateSigningRequest'),
  fieldSelectors: { 'spec.signerName': field('spec.signerName') },
};

export const certificatesDefinitions: readonly ResourceDefinition[] = [certificateSigningRequests];
