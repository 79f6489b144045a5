// authorization.k8s.io/v1 SelfSubjectAccessReview and SelfSubjectRulesReview, sent by `kubectl
// auth can-i` (api/authorization/v1/generated.proto). Only what a client sends: the status is
// the server's to fill in.
import { objectMeta } from './meta-v1.js';
import { message, msg, str } from './schema.js';

const resourceAttributes = message('ResourceAttributes', {
  1: str('namespace'),
  2: str('verb'),
  3: str('group'),
  4: str('version'),
  5: str('resource'),
  6: str('subresource'),
  7: str('name'),
});

const nonResourceAttributes = message('NonResourceAttributes', {
  1: str('path'),
  2: str('verb'),
});

export const selfSubjectAccessReview = message('SelfSubjectAccessReview', {
  1: msg('metadata', objectMeta),
  2: msg(
    'spec',
    message('SelfSubjectAccessReviewSpec', {
      1: msg('resourceAttributes', resourceAttributes),
      2: msg('nonResourceAttributes', nonResourceAttributes),
    }),
  ),
});

export const selfSubjectRulesReview = message('SelfSubjectRulesReview', {
  1: msg('metadata', objectMeta),
  2: msg('spec', message('SelfSubjectRulesReviewSpec', { 1: str('namespace') })),
});
