// Which requests are approved without a person, as kube-controller-manager's csrapproving
// controller: a node's client certificate (signer kube-apiserver-client-kubelet, subject
// CN=system:node:<name> O=system:nodes, client usages only, no alternative names), asked for
// either by a node that is joining (a join-token user, group system:bootstrappers) or by that
// same node renewing (user system:node:<name>). Everything else waits for
// `kubectl certificate approve`.
import { BOOTSTRAPPERS_GROUP } from '../authn/bootstrap-token.js';
import { CLIENT_USAGES, KUBE_APISERVER_CLIENT_KUBELET, notNodeSubject, type RequestFacts } from './signers.js';

export const AUTO_APPROVED_REASON = 'AutoApproved';

/** The message of the Approved condition when the request is approved automatically, else undefined. */
export function autoApproval(facts: RequestFacts): string | undefined {
  if (facts.signerName !== KUBE_APISERVER_CLIENT_KUBELET) return undefined;
  if (notNodeSubject(facts.subject) !== undefined || facts.altNames.length > 0) return undefined;
  if (!facts.usages.includes('client auth') || facts.usages.some((usage) => !CLIENT_USAGES.includes(usage))) return undefined;
  if (facts.groups.includes(BOOTSTRAPPERS_GROUP)) return 'Auto approving the client certificate of a joining node.';
  if (facts.username === facts.subject.commonName) return 'Auto approving a node renewing its own client certificate.';
  return undefined;
}
