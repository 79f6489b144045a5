// Dialing a node agent's streaming endpoint over TLS, as kube-apiserver dials kubelets when given
// --kubelet-certificate-authority and a client certificate: the agent must present a serving
// certificate the cluster CA signed for the address dialled and for that very node
// (CN=system:node:<node>, so one node cannot stand in for another), and the API server presents
// its own client certificate (CN=system:drover-apiserver), which the agent requires.
import { checkServerIdentity, type ConnectionOptions, type PeerCertificate } from 'node:tls';
import { isIP } from 'node:net';
import { NODE_USER_PREFIX } from '../../auth/components.js';

/** The CA to verify agents with, and the client certificate and key to present (PEM). */
export interface AgentClientTls {
  ca?: string | Buffer;
  cert?: string | Buffer;
  key?: string | Buffer;
}

/** Who dials agents: the API server's own identity. */
export const APISERVER_AGENT_CLIENT = 'system:drover-apiserver';

/** TLS options for connecting to the agent of `node` at `host`. */
export function agentTlsOptions(tls: AgentClientTls, node: string, host: string): ConnectionOptions {
  return {
    ...(tls.ca ? { ca: tls.ca } : {}),
    ...(tls.cert ? { cert: tls.cert } : {}),
    ...(tls.key ? { key: tls.key } : {}),
    rejectUnauthorized: true,
    ...(isIP(host) ? {} : { servername: host }),
    checkServerIdentity: (hostname: string, cert: PeerCertificate) => {
      const mismatch = checkServerIdentity(hostname, cert);
      if (mismatch) return mismatch;
      const commonName = Array.isArray(cert.subject?.CN) ? cert.subject.CN[0] : cert.subject?.CN;
      if (commonName !== `${NODE_USER_PREFIX}${node}`) return new Error(`the agent at ${hostname} serves as ${commonName ?? 'nobody'}, not as node ${node}`);
      return undefined;
    },
  };
}
