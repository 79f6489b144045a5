// Kubernetes' NodeRestriction admission: what the node authorizer cannot see, because a create
// names its object in the body, not the URL. An agent may create only its own Node and its own
// Lease; creating a pod (a mirror pod) is not something Drover's agents do, so it is refused.
import type { ValidatingAdmission } from '../../apiserver/admission/validating-admission.js';
import { forbidden } from '../../apiserver/errors.js';
import { NODE_USER_PREFIX, NODES_GROUP } from '../components.js';

export const nodeRestriction: ValidatingAdmission = {
  async validate(request) {
    const user = request.user;
    if (!user || !user.username.startsWith(NODE_USER_PREFIX) || !user.groups.includes(NODES_GROUP)) return [];
    const node = user.username.slice(NODE_USER_PREFIX.length);
    const { def, object } = request;
    const name = object.metadata.name ?? '';
    const kind = def.group ? `${def.plural}.${def.group}` : def.plural;
    const refuse = (why: string) => {
      throw forbidden(`${kind} "${name}" is forbidden: node "${node}" ${why}`, { group: def.group, plural: def.plural, name });
    };
    if (kind === 'nodes' && name !== node) refuse('is not allowed to modify node ' + JSON.stringify(name));
    if (kind === 'leases.coordination.k8s.io' && name !== node) refuse('may only write its own Lease');
    if (kind === 'pods' && request.operation === 'create') refuse('may not create pods');
    return [];
  },
};
