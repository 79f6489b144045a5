// Which requests are approved without a person, as kube-controller-manager's csrapproving
// controller: a node's client certificate (signer kube-apiserver-client-kubelet, subject
// CN=system:node:<name> O=system:nodes, client usages only, no alternative names), asked for
// either by a node that is joining (a join-token user, group system:bootstrappers) or by that
// same node renewing (user system:node:<name>).
//
// Beyond Kubernetes (which leaves kubelet-serving requests to a person), and as k3s signs its
// agents' serving certificates: a node's serving certificate for IP addresses only, asked for by
// that node itself (or by an admin's kubeconfig, which could approve it anyway). The API server
// checks the node's name in it as well as the address when it dials the agent, so one node's
// certificate never passes for another's. Everything else waits for `kubectl certificate approve`.
import { isIP } from 'node:net';
import { MASTERS_GROUP } from '../components.js';
import { BOOTSTRAPPERS_GROUP } from '../authn/bootstrap-token.js';
import { CLIENT_USAGES, KUBE_APISERVER_CLIENT_KUBELET, KUBELET_SERVING, SERVING_USAGES, notNodeSubject, type RequestFacts } from './signers.js';

export const AUTO_APPROVED_REASON = 'AutoApproved';

/** The message of the Approved condition when the request is approved automatically, else undefined. */
export function autoApproval(facts: RequestFacts): string | undefined {
  if (facts.signerName === KUBELET_SERVING) return servingApproval(facts);
  if (facts.signerName !== KUBE_APISERVER_CLIENT_KUBELET) return undefined;
  if (notNodeSubject(facts.subject) !== undefined || facts.altNames.length > 0) return undefined;
  if (!facts.usages.includes('client auth') || facts.usages.some((usage) => !CLIENT_USAGES.includes(usage))) return undefined;
  if (facts.groups.includes(BOOTSTRAPPERS_GROUP)) return 'Auto approving the client certificate of a joining node.';
  if (facts.username === facts.subject.commonName) return 'Auto approving a node renewing its own client certificate.';
  return undefined;
}

function servingApproval(facts: RequestFacts): string | undefined {
  if (notNodeSubject(facts.subject) !== undefined) return undefined;
  if (!facts.usages.includes('server auth') || facts.usages.some((usage) => !SERVING_USAGES.includes(usage))) return undefined;
  if (facts.altNames.length === 0 || facts.altNames.some((name) => isIP(name) === 0)) return undefined;
  if (facts.username === facts.subject.commonName) return "Auto approving a node's serving certificate for its addresses.";
  if (facts.groups.includes(MASTERS_GROUP)) return 'Auto approving a node serving certificate asked for by an admin.';
  return undefined;
}
