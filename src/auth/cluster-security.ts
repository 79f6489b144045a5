// Everything a server needs to serve securely, made from the cluster's certificates: the serving
// TLS settings, the authentication chain, the service-account token signer, and credentials for the
// clients it starts itself (the control plane, the data checker) and for its admin.
import type { TlsConfig } from '../client/config.js';
import { RequestAuthenticator, type TokenAuthenticator } from './authn/authenticator.js';
import type { ClusterPki } from './pki/cluster-pki.js';
import type { Subject } from './pki/certificates.js';
import { MASTERS_GROUP } from './components.js';
import type { ServiceAccountTokens } from './serviceaccount/tokens.js';

/** What an HTTPS API server serves with: its certificate and key, and the CA client certificates must chain to (PEM). */
export interface ServingTls {
  cert: string;
  key: string;
  /** The cluster CA: client certificates are verified against it, and /cacerts serves it. */
  ca: string;
}

export const ADMIN_SUBJECT: Subject = { commonName: 'drover-admin', organizations: [MASTERS_GROUP] };

export interface ClusterSecurity {
  pki: ClusterPki;
  tls: ServingTls;
  /** The chain without the service-account authenticator: the API server adds it (it reads the store). */
  authenticator: RequestAuthenticator;
  /** Signs and checks service-account tokens (TokenRequest, the projected token, the authenticator). */
  serviceAccounts: ServiceAccountTokens;
  /** TLS client settings (the CA to trust, a certificate and key) for one identity. */
  clientTls(subject: Subject): Promise<TlsConfig>;
}

export function clusterSecurity(pki: ClusterPki, serviceAccounts: ServiceAccountTokens, tokens: TokenAuthenticator[] = []): ClusterSecurity {
  return {
    pki,
    tls: { cert: pki.server.certPem, key: pki.server.keyPem, ca: pki.caPem },
    authenticator: new RequestAuthenticator(tokens),
    serviceAccounts,
    async clientTls(subject) {
      const issued = await pki.issue(subject, 'client');
      return { ca: Buffer.from(pki.caPem), cert: Buffer.from(issued.certPem), key: Buffer.from(issued.keyPem) };
    },
  };
}
