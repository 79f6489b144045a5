// The review kinds: created by a client, answered by the server in status, never stored, as
// Kubernetes serves them; the answers come from the server's authorizer (src/auth/reviews.ts).
import type { TSchema } from '@sinclair/typebox';
import type { ResourceDefinition } from '../resource.js';
import { printerFor } from '../printers/index.js';
import {
  LocalSubjectAccessReviewSchema,
  SelfSubjectAccessReviewSchema,
  SelfSubjectReviewSchema,
  SelfSubjectRulesReviewSchema,
  SubjectAccessReviewSchema,
  TokenReviewSchema,
} from '../schemas/reviews.js';
import { accessReview, rulesReview, subjectOf, tokenReview, whoAmI } from '../../auth/reviews.js';
import { noDefaults } from './helpers.js';

function review(group: string, kind: string, schema: TSchema, answer: ResourceDefinition['answer'], namespaced = false): ResourceDefinition {
  const plural = `${kind.toLowerCase()}s`;
  return {
    group,
    version: 'v1',
    kind,
    listKind: `${kind}List`,
    plural,
    singular: kind.toLowerCase(),
    namespaced,
    shortNames: [],
    categories: [],
    verbs: ['create'],
    subresources: {},
    schema,
    applyDefaults: noDefaults,
    validate: () => [],
    table: printerFor(kind),
    fieldSelectors: {},
    answer,
  };
}

export const reviewDefinitions: readonly ResourceDefinition[] = [
  review('authorization.k8s.io', 'SelfSubjectAccessReview', SelfSubjectAccessReviewSchema, (object, requester) => accessReview(object, requester)),
  review('authorization.k8s.io', 'SubjectAccessReview', SubjectAccessReviewSchema, (object, requester) => accessReview(object, requester, subjectOf(object))),
  review(
    'authorization.k8s.io',
    'LocalSubjectAccessReview',
    LocalSubjectAccessReviewSchema,
    (object, requester) => accessReview(object, requester, subjectOf(object)),
    true,
  ),
  review('authorization.k8s.io', 'SelfSubjectRulesReview', SelfSubjectRulesReviewSchema, rulesReview),
  review('authentication.k8s.io', 'SelfSubjectReview', SelfSubjectReviewSchema, (_object, requester) => whoAmI(requester)),
  review('authentication.k8s.io', 'TokenReview', TokenReviewSchema, tokenReview),
];
