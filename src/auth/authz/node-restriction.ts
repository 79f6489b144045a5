// Kubernetes' NodeRestriction admission, the part Drover needs: a node creates only its own Node
// and its own Lease. The node authorizer must allow a create before the body (and so the name)
// is read; this validating step, which sees the object, refuses a node creating any other.
import type { ValidatingAdmission } from '../../apiserver/admission/validating-admission.js';
import { forbidden } from '../../apiserver/errors.js';
import { NODE_USER_PREFIX, NODES_GROUP } from '../components.js';

export function nodeRestrictionAdmission(): ValidatingAdmission {
  return {
    async validate({ def, object, user, operation }) {
      const isNode = def.group === '' && def.kind === 'Node';
      const isLease = def.group === 'coordination.k8s.io' && def.kind === 'Lease';
      if (operation !== 'create' || !(isNode || isLease) || !user) return [];
      if (!user.username.startsWith(NODE_USER_PREFIX) || !user.groups.includes(NODES_GROUP)) return [];
      const node = user.username.slice(NODE_USER_PREFIX.length);
      const name = object.metadata.name ?? '';
      if (name !== node) {
        const ref = { group: def.group, plural: def.plural, name };
        throw forbidden(`${def.plural} ${JSON.stringify(name)} is forbidden: node ${JSON.stringify(node)} may only create its own ${def.kind}`, ref);
      }
      return [];
    },
  };
}
