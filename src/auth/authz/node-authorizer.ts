// The node authorizer (Kubernetes' Node authorization mode): an agent, `system:node:<name>` in
// `system:nodes`, may read only the pods bound to its node (lists and watches must select
// spec.nodeName=<name>) and the Secrets, ConfigMaps, claims and service-account tokens those pods
// use (and the volumes of those claims), and write only its own Node, its Lease, its pods'
// status and events (and ask for certificates: CertificateSigningRequests, which only the
// approver judges). The local-path volumes whose directories are on its node it may also list
// and watch (by their drover.io/local-path-node label) and update: it removes their directories
// and lifts their cleanup finalizer (node-restriction.ts keeps that the only change). It also reads every
// Service, Endpoints and EndpointSlice: the agent is the node's service proxy and DNS. It has no
// opinion on anyone else: RBAC decides for them.
import { findResource } from '../../api/registry.js';
import { prefixFor } from '../../apiserver/registry/keys.js';
import { StoreMirror } from '../../storage/store-mirror.js';
import type { Store } from '../../storage/store.js';
import { NODE_USER_PREFIX, NODES_GROUP } from '../components.js';
import type { Authorizer, Decision, RequestAttributes } from '../types.js';
import { NodeGraph, type Reference } from './node-graph.js';
import { LABEL_LOCAL_PATH_NODE } from '../../api/volumes/names.js';

const NODE_LEASE_NAMESPACE = 'kube-node-lease';
/** The namespace whose uid names the cluster (src/agent/cluster-id.ts). */
const CLUSTER_ID_NAMESPACE = 'kube-system';
const READ = new Set(['get', 'list', 'watch']);
const WRITE = new Set(['create', 'update', 'patch']);
const REFERENCED: ReadonlySet<string> = new Set<Reference>(['secrets', 'configmaps', 'persistentvolumeclaims']);

export interface NodeAuthorizer extends Authorizer {
  start(): Promise<void>;
  stop(): void;
}

export function createNodeAuthorizer(store: Store): NodeAuthorizer {
  const mirror = new StoreMirror(store, {
    name: 'node authorizer',
    prefixes: [prefixFor(findResource('', 'v1', 'pods')!), prefixFor(findResource('', 'v1', 'persistentvolumes')!)],
    fresh: () => new NodeGraph(),
    apply: (graph, index, event) => {
      if (index === 0) graph.apply(event);
      else graph.applyVolume(event, LABEL_LOCAL_PATH_NODE);
    },
  });
  return {
    start: () => mirror.start(),
    stop: () => mirror.stop(),
    authorize: (attributes) => decide(attributes, mirror.state),
  };
}

const allow = (reason: string): Decision => ({ allowed: true, reason });
const noOpinion: Decision = { allowed: false, reason: '' };

function decide(a: RequestAttributes, graph: NodeGraph): Decision {
  const { username, groups } = a.user;
  if (!username.startsWith(NODE_USER_PREFIX) || !groups.includes(NODES_GROUP)) return noOpinion;
  if (!a.resourceRequest) return noOpinion;
  const node = username.slice(NODE_USER_PREFIX.length);
  const deny = (why: string): Decision => ({ allowed: false, reason: `node '${node}' ${why}` });
  const own = `node ${node} may do this`;
  const resource = a.apiGroup === '' ? a.resource : `${a.resource}.${a.apiGroup}`;
  switch (resource) {
    case 'nodes':
      if (READ.has(a.verb)) return allow(own);
      if (WRITE.has(a.verb) && a.name === node) return allow(own);
      // A create names no object in its path: node-restriction.ts checks the body's name.
      if (a.verb === 'create' && a.name === '' && a.subresource === '') return allow(own);
      return deny('may only change its own Node');
    case 'leases.coordination.k8s.io':
      if (a.namespace === NODE_LEASE_NAMESPACE && a.name === node && (WRITE.has(a.verb) || a.verb === 'get')) return allow(own);
      if (a.namespace === NODE_LEASE_NAMESPACE && a.verb === 'create' && a.name === '') return allow(own); // named in the body: node-restriction.ts
      return deny(`may only use its own Lease in ${NODE_LEASE_NAMESPACE}`);
    case 'events':
    case 'events.events.k8s.io':
      return WRITE.has(a.verb) ? allow(own) : noOpinion;
    case 'namespaces':
      return a.verb === 'get' && a.name === CLUSTER_ID_NAMESPACE ? allow(own) : noOpinion;
    // The agent is also the node's service proxy and DNS (kube-proxy's and CoreDNS' reads).
    case 'services':
    case 'endpoints':
    case 'endpointslices.discovery.k8s.io':
      return READ.has(a.verb) ? allow(own) : noOpinion;
    case 'pods':
      return podDecision(a, node, graph, deny);
    case 'persistentvolumes':
      return volumeDecision(a, node, graph, deny);
    // Kubernetes' static node rules: a node asks for (and renews) its own certificates.
    case 'certificatesigningrequests.certificates.k8s.io':
      return a.subresource === '' && (a.verb === 'create' || READ.has(a.verb)) ? allow(own) : noOpinion;
    case 'serviceaccounts':
      if (a.subresource === 'token' && a.verb === 'create' && graph.reaches(node, 'serviceaccounts', a.namespace, a.name)) return allow(own);
      return deny('no relationship found between the node and this service account');
    default:
      if (REFERENCED.has(resource) && a.verb === 'get') {
        if (graph.reaches(node, resource as Reference, a.namespace, a.name)) return allow(own);
        return deny('has no relationship with this object');
      }
      return noOpinion;
  }
}

function volumeDecision(a: RequestAttributes, node: string, graph: NodeGraph, deny: (why: string) => Decision): Decision {
  const own = `node ${node} may do this`;
  const selector = `${LABEL_LOCAL_PATH_NODE}=${node}`;
  if (a.subresource) return noOpinion;
  if (a.verb === 'list' || a.verb === 'watch') {
    return a.labelSelector === selector ? allow(own) : deny(`may only list and watch persistentvolumes with labelSelector ${selector}`);
  }
  if (a.verb === 'get' && (graph.reachesVolume(node, a.name) || graph.holdsVolume(node, a.name))) return allow(own);
  if ((a.verb === 'update' || a.verb === 'patch') && graph.holdsVolume(node, a.name)) return allow(own);
  return deny('has no relationship with this object');
}

function podDecision(a: RequestAttributes, node: string, graph: NodeGraph, deny: (why: string) => Decision): Decision {
  const own = `node ${node} may do this`;
  if (a.verb === 'list' || a.verb === 'watch') {
    return a.fieldSelector === `spec.nodeName=${node}` ? allow(own) : deny(`may only list and watch pods with fieldSelector spec.nodeName=${node}`);
  }
  const bound = graph.reaches(node, 'pods', a.namespace, a.name);
  if (a.subresource === 'status' && (a.verb === 'update' || a.verb === 'patch' || a.verb === 'get'))
    return bound ? allow(own) : deny('may only report the status of its own pods');
  if (a.subresource) return noOpinion;
  if (a.verb === 'get') {
    if (bound) return allow(own);
    // A replica of a training job running here resolves the job's other replicas by name.
    const job = graph.jobOf(a.namespace, a.name);
    if (job && graph.reaches(node, 'jobs', a.namespace, job)) return allow(own);
    return deny('no relationship found between the node and this pod');
  }
  if (a.verb === 'delete') return bound ? allow(own) : deny('may only delete its own pods');
  return noOpinion;
}
