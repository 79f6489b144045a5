// certificates.k8s.io/v1 CertificateSigningRequest, sent by `kubectl certificate approve|deny`
// (api/certificates/v1/generated.proto). spec.extra (field 6) is not read: the server sets it.
import { objectMeta } from './meta-v1.js';
import { bytes, i32, message, msg, PTR, REP, str, time } from './schema.js';

const condition = message('CertificateSigningRequestCondition', {
  1: str('type'),
  6: str('status'),
  2: str('reason'),
  3: str('message'),
  4: time('lastUpdateTime'),
  5: time('lastTransitionTime'),
});

export const certificateSigningRequest = message('CertificateSigningRequest', {
  1: msg('metadata', objectMeta),
  2: msg(
    'spec',
    message('CertificateSigningRequestSpec', {
      1: bytes('request'),
      7: str('signerName'),
      8: i32('expirationSeconds', PTR),
      5: str('usages', REP),
      2: str('username'),
      3: str('uid'),
      4: str('groups', REP),
    }),
  ),
  3: msg('status', message('CertificateSigningRequestStatus', { 1: msg('conditions', condition, REP), 2: bytes('certificate') })),
});
