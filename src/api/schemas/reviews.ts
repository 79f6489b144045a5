// The review kinds clients ask the server with: authorization.k8s.io/v1 SelfSubjectAccessReview
// (`kubectl auth can-i`), SubjectAccessReview and LocalSubjectAccessReview (`can-i --as`, other
// components), SelfSubjectRulesReview (`can-i --list`), authentication.k8s.io/v1
// SelfSubjectReview (`kubectl auth whoami`). Created, answered, never stored.
import { bool, field, list, map, named, str, stringList, struct } from './builders.js';
import { kindSchema } from './meta.js';

const UserInfo = named(
  'io.k8s.api.authentication.v1.UserInfo',
  struct('A user as the server authenticated it.', {
    username: str("The user's name."),
    uid: str('A unique id of the user.'),
    groups: stringList('Groups the user belongs to.'),
    extra: map('Further information from the authenticator.', list('Values.', str('A value.'))),
  }),
);

const ResourceAttributes = named(
  'io.k8s.api.authorization.v1.ResourceAttributes',
  struct('A request on a resource, as an authorizer sees it.', {
    namespace: str('Namespace of the request; empty for cluster-scoped resources or all namespaces.'),
    verb: str('Verb: get, list, watch, create, update, patch, delete, deletecollection, or * for all.'),
    group: str('API group of the resource; * for all.'),
    version: str('API version of the resource; * for all.'),
    resource: str('Resource (plural), e.g. pods; * for all.'),
    subresource: str('Subresource, e.g. log or status.'),
    name: str('Name of the object; empty for all.'),
  }),
);

const NonResourceAttributes = named(
  'io.k8s.api.authorization.v1.NonResourceAttributes',
  struct('A request on a path that is not a resource, e.g. /healthz.', {
    path: str('The URL path.'),
    verb: str('The HTTP verb, lower-cased.'),
  }),
);

const AccessReviewStatus = named(
  'io.k8s.api.authorization.v1.SubjectAccessReviewStatus',
  struct('The answer.', {
    allowed: bool('Whether the action is allowed.'),
    denied: bool('Whether the action is explicitly denied.'),
    reason: str('Why it is allowed or denied.'),
    evaluationError: str('An error met while deciding, if any.'),
  }),
);

const attributes = {
  resourceAttributes: field(ResourceAttributes, 'A request on a resource.'),
  nonResourceAttributes: field(NonResourceAttributes, 'A request on a non-resource path.'),
};

/** The subject a SubjectAccessReview asks about (a self review asks about its requester). */
const subject = {
  user: str('The user to check.'),
  groups: stringList('The groups of the user.'),
  uid: str('The uid of the user.'),
  extra: map('Further facts about the user.', list('Values.', str('A value.'))),
};

export const SelfSubjectAccessReviewSchema = kindSchema(
  { group: 'authorization.k8s.io', version: 'v1', kind: 'SelfSubjectAccessReview' },
  'Asks whether the requesting user may perform an action. Answered in status, never stored.',
  {
    spec: field(struct('The action to check: resourceAttributes or nonResourceAttributes.', attributes), 'The action to check.'),
    status: field(AccessReviewStatus, 'The answer, filled in by the server.'),
  },
  ['spec'],
);

/** Whether a given user may do something: anywhere (SubjectAccessReview) or in the review's namespace (Local). */
const subjectAccessReview = (kind: string, where: string) =>
  kindSchema(
    { group: 'authorization.k8s.io', version: 'v1', kind },
    `Asks whether a given user may perform an action${where}. Answered in status, never stored.`,
    {
      spec: field(
        named('io.k8s.api.authorization.v1.SubjectAccessReviewSpec', struct('The user and the action to check.', { ...attributes, ...subject })),
        'The user and the action to check.',
      ),
      status: field(AccessReviewStatus, 'The answer, filled in by the server.'),
    },
    ['spec'],
  );

export const SubjectAccessReviewSchema = subjectAccessReview('SubjectAccessReview', '');
export const LocalSubjectAccessReviewSchema = subjectAccessReview('LocalSubjectAccessReview', ' in this namespace');

const rule = (kind: string, what: Record<string, ReturnType<typeof str>>) =>
  named(`io.k8s.api.authorization.v1.${kind}`, struct(`Actions the user may perform (${kind}).`, { verbs: stringList('Verbs allowed; * for all.'), ...what }));

export const SelfSubjectRulesReviewSchema = kindSchema(
  { group: 'authorization.k8s.io', version: 'v1', kind: 'SelfSubjectRulesReview' },
  'Lists what the requesting user may do in a namespace. Answered in status, never stored.',
  {
    spec: field(struct('The namespace to list the rules of.', { namespace: str('The namespace.') }), 'The namespace to list the rules of.'),
    status: field(
      named(
        'io.k8s.api.authorization.v1.SubjectRulesReviewStatus',
        struct('The rules.', {
          resourceRules: list(
            'Rules on resources.',
            rule('ResourceRule', { apiGroups: stringList('API groups.'), resources: stringList('Resources.'), resourceNames: stringList('Object names.') }),
          ),
          nonResourceRules: list('Rules on non-resource paths.', rule('NonResourceRule', { nonResourceURLs: stringList('Paths.') })),
          incomplete: bool('Whether the list may be missing rules.'),
          evaluationError: str('An error met while listing, if any.'),
        }),
      ),
      'The rules, filled in by the server.',
    ),
  },
  ['spec'],
);

export const SelfSubjectReviewSchema = kindSchema(
  { group: 'authentication.k8s.io', version: 'v1', kind: 'SelfSubjectReview' },
  'Asks who the server takes the requesting user to be. Answered in status, never stored.',
  {
    status: field(
      struct('Who the user is.', {
        userInfo: field(UserInfo, 'The user.'),
      }),
      'Who the user is, filled in by the server.',
    ),
  },
);

export const TokenReviewSchema = kindSchema(
  { group: 'authentication.k8s.io', version: 'v1', kind: 'TokenReview' },
  'Asks whether a bearer token is valid and whom it stands for (webhook token authentication). Answered in status, never stored.',
  {
    spec: field(
      named(
        'io.k8s.api.authentication.v1.TokenReviewSpec',
        struct('The token to check.', {
          token: str('The opaque bearer token.'),
          audiences: stringList("Audiences the token must be meant for (at least one); default the API server's."),
        }),
      ),
      'The token to check.',
    ),
    status: field(
      named(
        'io.k8s.api.authentication.v1.TokenReviewStatus',
        struct('The answer.', {
          authenticated: bool('Whether the token is valid.'),
          user: field(UserInfo, 'The user the token stands for.'),
          audiences: stringList('The audiences the token was found valid for.'),
          error: str('Why the token could not be checked.'),
        }),
      ),
      'The answer, filled in by the server.',
    ),
  },
  ['spec'],
);
