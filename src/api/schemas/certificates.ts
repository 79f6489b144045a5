// certificates.k8s.io/v1 CertificateSigningRequest, as Kubernetes defines it: a client asks a
// signer for a certificate (a PKCS#10 request, base64 PEM in JSON as Go's []byte), someone (or
// an approver) approves or denies it through /approval, and the signer writes the certificate
// through /status. Drover's agents join the cluster this way (src/agent/join/).
import { Type } from '@sinclair/typebox';
import { atomicList, enumStr, field, int32, map, named, str, stringList, struct, time } from './builders.js';
import { conditionList, kindSchema } from './meta.js';

const CERTIFICATES = 'io.k8s.api.certificates.v1';

export const CERTIFICATES_GROUP = 'certificates.k8s.io';

/** Go's []byte: base64 in JSON. */
const bytes = (description: string) => Type.String({ description, format: 'byte' });

export const KEY_USAGES = [
  'signing',
  'digital signature',
  'content commitment',
  'key encipherment',
  'key agreement',
  'data encipherment',
  'cert sign',
  'crl sign',
  'encipher only',
  'decipher only',
  'any',
  'server auth',
  'client auth',
  'code signing',
  'email protection',
  's/mime',
  'ipsec end system',
  'ipsec tunnel',
  'ipsec user',
  'timestamping',
  'ocsp signing',
  'microsoft sgc',
  'netscape sgc',
] as const;

const CertificateSigningRequestSpec = named(
  `${CERTIFICATES}.CertificateSigningRequestSpec`,
  struct(
    'The certificate asked for.',
    {
      request: bytes('An x509 certificate signing request in a "CERTIFICATE REQUEST" PEM block; base64-encoded again in JSON and YAML.'),
      signerName: str(
        'The signer asked to sign, a qualified name: kubernetes.io/kube-apiserver-client, kubernetes.io/kube-apiserver-client-kubelet, kubernetes.io/kubelet-serving, or a custom one.',
      ),
      expirationSeconds: int32('Requested validity of the certificate in seconds, at least 600. The signer may issue a shorter one.'),
      usages: atomicList(
        'Key usages requested in the certificate, e.g. "digital signature", "key encipherment", "client auth".',
        enumStr('A key usage.', KEY_USAGES),
      ),
      username: str('Name of the user that created the request. Set by the API server on creation; immutable.'),
      uid: str('UID of the user that created the request. Set by the API server on creation; immutable.'),
      groups: stringList('Groups of the user that created the request. Set by the API server on creation; immutable.'),
      extra: map('Extra attributes of the user that created the request. Set by the API server on creation; immutable.', Type.Array(Type.String())),
    },
    ['request', 'signerName'],
  ),
);

const CertificateSigningRequestCondition = named(
  `${CERTIFICATES}.CertificateSigningRequestCondition`,
  struct(
    'A condition of a request: Approved, Denied or Failed.',
    {
      type: str('Approved, Denied or Failed (each at most once; Approved and Denied exclude each other), or another type.'),
      status: str('True, False or Unknown; Approved, Denied and Failed must be True. Defaults to True.'),
      reason: str('A brief reason, in CamelCase.'),
      message: str('A human-readable explanation.'),
      lastUpdateTime: time('When the condition was last updated.'),
      lastTransitionTime: time('When the condition last changed status.'),
    },
    ['type', 'status'],
  ),
);

const CertificateSigningRequestStatus = named(
  `${CERTIFICATES}.CertificateSigningRequestStatus`,
  struct('Whether the request is approved or denied, and the issued certificate.', {
    conditions: conditionList(
      'Approved, Denied or Failed. Set through the approval subresource (Approved, Denied) and the status subresource (others).',
      CertificateSigningRequestCondition,
    ),
    certificate: bytes(
      'The issued certificate (PEM CERTIFICATE blocks), set by the signer through the status subresource once the request is approved; immutable once set.',
    ),
  }),
);

export const CertificateSigningRequestSchema = kindSchema(
  { group: CERTIFICATES_GROUP, version: 'v1', kind: 'CertificateSigningRequest' },
  'A request for an x509 certificate from a signer, approved or denied, then issued. Agents ask for their client certificates this way when they join.',
  {
    spec: field(CertificateSigningRequestSpec, 'The certificate request. Immutable.'),
    status: field(CertificateSigningRequestStatus, 'Approval and the issued certificate.'),
  },
  ['spec'],
);
