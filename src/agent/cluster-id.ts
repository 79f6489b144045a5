// The cluster's identity, which every sandbox and container the agent makes carries (see
// agent-labels.ts). Kubernetes' convention: the uid of the kube-system namespace is the cluster
// ID. The API server creates that namespace once, when its store is new, so the id lasts as long
// as the cluster's data, survives restarts, and every agent of the cluster reads the same one.
import { resources, type ApiClient } from '../client/index.js';

export const CLUSTER_ID_NAMESPACE = 'kube-system';

export async function readClusterId(api: ApiClient): Promise<string> {
  const namespace = await api.resource(resources.namespaces).get(CLUSTER_ID_NAMESPACE);
  const uid = namespace.metadata.uid;
  if (!uid) throw new Error(`the ${CLUSTER_ID_NAMESPACE} namespace has no uid`);
  return uid;
}
