// authentication.k8s.io/v1 TokenRequest, sent by `kubectl create token`, and SelfSubjectReview,
// sent by `kubectl auth whoami` (api/authentication/v1/generated.proto).
import { objectMeta } from './meta-v1.js';
import { ALWAYS, i64, message, msg, PTR, REP, str, time } from './schema.js';

const boundObjectReference = message('BoundObjectReference', {
  1: str('kind'),
  2: str('apiVersion'),
  3: str('name'),
  // The proto field is named uID; the Go json tag is "uid".
  4: str('uid'),
});

export const tokenRequest = message('TokenRequest', {
  1: msg('metadata', objectMeta),
  2: msg(
    'spec',
    message('TokenRequestSpec', {
      1: str('audiences', REP),
      4: i64('expirationSeconds', PTR),
      3: msg('boundObjectRef', boundObjectReference),
    }),
  ),
  3: msg('status', message('TokenRequestStatus', { 1: str('token', ALWAYS), 2: time('expirationTimestamp') })),
});

/** The client sends only metadata; the status (who it is) is the server's answer. */
export const selfSubjectReview = message('SelfSubjectReview', { 1: msg('metadata', objectMeta) });
