// Kubernetes' NodeRestriction admission: what the node authorizer cannot see, because a create
// names its object in the body, not the URL. An agent may create only its own Node and its own
// Lease; creating a pod (a mirror pod) is not something Drover's agents do, so it is refused.
// Of a local-path volume of its node it may change nothing but lift the cleanup finalizer.
import type { AdmissionRequest, ValidatingAdmission } from '../../apiserver/admission/validating-admission.js';
import { forbidden } from '../../apiserver/errors.js';
import { NODE_USER_PREFIX, NODES_GROUP } from '../components.js';
import type { KubeObject } from '../../api/meta.js';
import { LOCAL_PATH_CLEANUP_FINALIZER } from '../../api/volumes/names.js';
import { semanticEqual } from '../../util/json-equal.js';

/** A node may only lift the local-path cleanup finalizer of a volume, once the directory is gone. */
function volumeChangeRefusal(volume: KubeObject, old: KubeObject): string | undefined {
  const finalizers = volume.metadata.finalizers ?? [];
  const removed = (old.metadata.finalizers ?? []).filter((f) => !finalizers.includes(f));
  const { finalizers: _new, resourceVersion: _v1, managedFields: _m1, ...meta } = volume.metadata;
  const { finalizers: _old, resourceVersion: _v2, managedFields: _m2, ...oldMeta } = old.metadata;
  const unchanged = semanticEqual({ ...volume, metadata: meta }, { ...old, metadata: oldMeta });
  if (!unchanged || removed.some((f) => f !== LOCAL_PATH_CLEANUP_FINALIZER) || finalizers.some((f) => !old.metadata.finalizers?.includes(f))) {
    return `may only remove the ${LOCAL_PATH_CLEANUP_FINALIZER} finalizer of a persistentvolume`;
  }
  return undefined;
}

/** Whether the request comes from an agent: a node's identity. */
function fromNode(request: AdmissionRequest): boolean {
  const user = request.user;
  return user !== undefined && user.username.startsWith(NODE_USER_PREFIX) && user.groups.includes(NODES_GROUP);
}

export const nodeRestriction: ValidatingAdmission = {
  validates: fromNode,
  async validate(request) {
    if (!fromNode(request)) return [];
    const node = request.user!.username.slice(NODE_USER_PREFIX.length);
    const { def, object } = request;
    const name = object.metadata.name ?? '';
    const kind = def.group ? `${def.plural}.${def.group}` : def.plural;
    const refuse = (why: string) => {
      throw forbidden(`${kind} "${name}" is forbidden: node "${node}" ${why}`, { group: def.group, plural: def.plural, name });
    };
    if (kind === 'nodes' && name !== node) refuse('is not allowed to modify node ' + JSON.stringify(name));
    if (kind === 'leases.coordination.k8s.io' && name !== node) refuse('may only write its own Lease');
    if (kind === 'pods' && request.operation === 'create') refuse('may not create pods');
    if (kind === 'persistentvolumes') {
      if (request.operation === 'create') refuse('may not create persistentvolumes');
      const why = request.old && volumeChangeRefusal(request.object, request.old);
      if (why) refuse(why);
    }
    return [];
  },
};
