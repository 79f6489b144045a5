// The signers Kubernetes defines, and what each will sign (the rules of kube-controller-manager's
// csrsigning controller): a request that breaks its signer's rules is marked Failed, not signed,
// even when someone approved it. Requests for any other signer are left to that signer.
import { NODE_USER_PREFIX, NODES_GROUP } from '../components.js';
import { MASTERS_GROUP } from '../components.js';
import type { CertificateUsage, Subject } from '../pki/certificates.js';

export const KUBE_APISERVER_CLIENT = 'kubernetes.io/kube-apiserver-client';
export const KUBE_APISERVER_CLIENT_KUBELET = 'kubernetes.io/kube-apiserver-client-kubelet';
export const KUBELET_SERVING = 'kubernetes.io/kubelet-serving';

export const CLIENT_USAGES = ['digital signature', 'key encipherment', 'client auth'];
export const SERVING_USAGES = ['digital signature', 'key encipherment', 'server auth'];

/** What a request asks for, read from its spec and its PKCS#10 request. */
export interface RequestFacts {
  signerName: string;
  usages: string[];
  subject: Subject;
  altNames: string[];
  /** Who asked: spec.username and spec.groups, which the server set. */
  username: string;
  groups: string[];
}

export type SigningPlan = { usage: CertificateUsage; altNames: string[] } | { failure: string };

export function isOurSigner(signerName: string): boolean {
  return signerName === KUBE_APISERVER_CLIENT || signerName === KUBE_APISERVER_CLIENT_KUBELET || signerName === KUBELET_SERVING;
}

function usagesWithin(usages: string[], allowed: string[], needed: string): string | undefined {
  const extra = usages.filter((usage) => !allowed.includes(usage));
  if (extra.length > 0) return `usages ${JSON.stringify(extra)} are not allowed (allowed: ${JSON.stringify(allowed)})`;
  if (!usages.includes(needed)) return `usages must include "${needed}"`;
  return undefined;
}

/** Why the subject is not a node's (CN=system:node:<name>, O=system:nodes only), or undefined. */
export function notNodeSubject(subject: Subject): string | undefined {
  if (!subject.commonName.startsWith(NODE_USER_PREFIX) || subject.commonName.length === NODE_USER_PREFIX.length) {
    return `the common name must be ${NODE_USER_PREFIX}<node name>`;
  }
  const organizations = subject.organizations ?? [];
  if (organizations.length !== 1 || organizations[0] !== NODES_GROUP) return `the organization must be exactly ${NODES_GROUP}`;
  return undefined;
}

/** How the request is to be signed, or why it must not be; only for the signers isOurSigner knows. */
export function signingPlan(facts: RequestFacts): SigningPlan {
  switch (facts.signerName) {
    case KUBE_APISERVER_CLIENT: {
      // No one becomes a superuser through a CSR (Kubernetes' CertificateSubjectRestriction).
      if ((facts.subject.organizations ?? []).includes(MASTERS_GROUP)) return { failure: `the organization may not be ${MASTERS_GROUP}` };
      const usages = usagesWithin(facts.usages, CLIENT_USAGES, 'client auth');
      return usages ? { failure: usages } : { usage: 'client', altNames: [] };
    }
    case KUBE_APISERVER_CLIENT_KUBELET: {
      const why =
        notNodeSubject(facts.subject) ??
        usagesWithin(facts.usages, CLIENT_USAGES, 'client auth') ??
        (facts.altNames.length > 0 ? 'a node client certificate has no subject alternative names' : undefined);
      return why ? { failure: why } : { usage: 'client', altNames: [] };
    }
    case KUBELET_SERVING: {
      // A node serves under its own name, asked for by itself (or by an admin, who holds every
      // power anyway): no other node or user gets a node's serving certificate.
      const byItself = facts.username === facts.subject.commonName || facts.groups.includes(MASTERS_GROUP);
      const why =
        notNodeSubject(facts.subject) ??
        usagesWithin(facts.usages, SERVING_USAGES, 'server auth') ??
        (facts.altNames.length === 0 ? 'a serving certificate needs at least one DNS name or IP address' : undefined) ??
        (byItself ? undefined : `only ${facts.subject.commonName} may ask for its serving certificate`);
      return why ? { failure: why } : { usage: 'server', altNames: facts.altNames };
    }
    default:
      return { failure: `${facts.signerName} is not a signer of this cluster` };
  }
}
