// What a request asks to do, in RBAC's terms (Kubernetes' RequestInfo): the verb from the method
// and the path, the resource, subresource, namespace and name.
import type { ResourcePath } from '../apiserver/routes.js';
import type { RequestAttributes, UserInfo } from './types.js';

/**
 * Subresources that open a stream into a container. Since Kubernetes 1.30 a websocket GET to them
 * needs `create`, as the POST always did: reading a pod must not grant running commands in it.
 */
const CONNECT_SUBRESOURCES = new Set(['exec', 'attach', 'portforward']);

export function resourceAttributes(user: UserInfo, method: string, path: ResourcePath, query: URLSearchParams): RequestAttributes {
  const attributes: RequestAttributes = {
    user,
    verb: resourceVerb(method, path, query),
    resourceRequest: true,
    apiGroup: path.group,
    apiVersion: path.version,
    resource: path.plural,
    subresource: path.subresource ?? '',
    // A namespace is in itself, as Kubernetes has it: a RoleBinding in `team` may grant reading `team`.
    namespace: path.group === '' && path.plural === 'namespaces' && path.name !== undefined ? path.name : (path.namespace ?? ''),
    name: path.name ?? '',
    path: '',
  };
  const fieldSelector = query.get('fieldSelector');
  if (fieldSelector) attributes.fieldSelector = fieldSelector;
  const labelSelector = query.get('labelSelector');
  if (labelSelector) attributes.labelSelector = labelSelector;
  return attributes;
}

export function nonResourceAttributes(user: UserInfo, method: string, pathname: string): RequestAttributes {
  return nonResourceRequest(user, method.toLowerCase(), pathname);
}

/** A request for a path outside the API's resources (`/healthz`, `/metrics`), as a verb: every resource field empty. */
export function nonResourceRequest(user: UserInfo, verb: string, path: string): RequestAttributes {
  return { user, verb, resourceRequest: false, apiGroup: '', apiVersion: '', resource: '', subresource: '', namespace: '', name: '', path };
}

function resourceVerb(method: string, path: ResourcePath, query: URLSearchParams): string {
  if (path.subresource && CONNECT_SUBRESOURCES.has(path.subresource)) return 'create';
  switch (method) {
    case 'GET':
    case 'HEAD': {
      const watching = path.legacyWatch || query.get('watch') === 'true' || query.get('watch') === '1';
      if (watching) return 'watch';
      return path.name === undefined ? 'list' : 'get';
    }
    case 'POST':
      return 'create';
    case 'PUT':
      return 'update';
    case 'PATCH':
      return 'patch';
    case 'DELETE':
      return path.name === undefined ? 'deletecollection' : 'delete';
    default:
      return method.toLowerCase();
  }
}

/** Kubernetes' 403 message: `pods "x" is forbidden: User "u" cannot get resource "pods" in API group "" in the namespace "n"`. */
export function forbiddenMessage(attributes: RequestAttributes, reason: string): string {
  const who = `User "${attributes.user.username}"`;
  const why = reason ? `: ${reason}` : '';
  if (!attributes.resourceRequest) return `forbidden: ${who} cannot ${attributes.verb} path "${attributes.path}"${why}`;
  const resource = attributes.subresource ? `${attributes.resource}/${attributes.subresource}` : attributes.resource;
  const qualified = attributes.apiGroup ? `${attributes.resource}.${attributes.apiGroup}` : attributes.resource;
  const subject = attributes.name ? `${qualified} "${attributes.name}"` : qualified;
  const scope = attributes.namespace ? ` in the namespace "${attributes.namespace}"` : ' at the cluster scope';
  return `${subject} is forbidden: ${who} cannot ${attributes.verb} resource "${resource}" in API group "${attributes.apiGroup}"${scope}${why}`;
}
