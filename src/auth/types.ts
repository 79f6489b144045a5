// Who a request comes from and what it asks to do: the two shapes authentication produces and
// authorization decides on, as Kubernetes' user.Info and authorizer.Attributes.

export interface UserInfo {
  username: string;
  uid?: string;
  /** Always carries system:authenticated (or system:unauthenticated for the anonymous user). */
  groups: string[];
  /** Extra facts, e.g. the pod a service-account token is bound to (authentication.kubernetes.io/pod-name). */
  extra?: Record<string, string[]>;
}

export const ANONYMOUS_USER: UserInfo = { username: 'system:anonymous', groups: ['system:unauthenticated'] };

/** What one request asks to do, in RBAC's terms. */
export interface RequestAttributes {
  user: UserInfo;
  /**
   * Resource requests: get, list, watch, create, update, patch, delete, deletecollection (and
   * the special verbs RBAC knows: bind, escalate, impersonate, approve, sign). Non-resource
   * requests: the HTTP method in lower case (get, post, ...).
   */
  verb: string;
  resourceRequest: boolean;
  /** Resource requests: '' for the core group. */
  apiGroup: string;
  apiVersion: string;
  /** The plural, e.g. 'pods'; '' for non-resource requests. */
  resource: string;
  /** e.g. 'log', 'exec', 'status'; '' when none. */
  subresource: string;
  /** '' for cluster-scoped resources, and for lists across all namespaces. */
  namespace: string;
  /** '' for lists and creates. */
  name: string;
  /** Non-resource requests: the path, e.g. /healthz. */
  path: string;
  /** A list's or watch's field selector, as sent (Kubernetes 1.31 authorizes with it). */
  fieldSelector?: string;
  /** A list's or watch's label selector, as sent (likewise). */
  labelSelector?: string;
}

export interface Decision {
  allowed: boolean;
  /** Why, for 403 messages and SubjectAccessReview status. */
  reason: string;
}

export interface Authorizer {
  authorize(attributes: RequestAttributes): Decision;
}

/** The rules a user holds in a namespace, as SelfSubjectRulesReview reports them. */
export interface ResourceRule {
  verbs: string[];
  apiGroups: string[];
  resources: string[];
  resourceNames?: string[];
}

export interface NonResourceRule {
  verbs: string[];
  nonResourceURLs: string[];
}

export interface RuleLister {
  rulesFor(
    user: UserInfo,
    namespace: string,
  ): { resourceRules: ResourceRule[]; nonResourceRules: NonResourceRule[]; incomplete: boolean; evaluationError?: string };
}
