// The review kinds: created by a client, answered by the server in status, never stored, as
// Kubernetes serves them. Drover has no authentication or authorization: every client may do
// everything, and so every review says.
import type { TSchema } from '@sinclair/typebox';
import type { KubeObject } from '../meta.js';
import type { ResourceDefinition } from '../resource.js';
import { printerFor } from '../printers/index.js';
import { SelfSubjectAccessReviewSchema, SelfSubjectReviewSchema, SelfSubjectRulesReviewSchema } from '../schemas/reviews.js';
import { noDefaults } from './helpers.js';

const EVERYTHING = 'Drover does not authorize requests: every client may do everything';

/** Who every client is to a server without authentication (Kubernetes' anonymous user). */
export const ANONYMOUS = { username: 'system:anonymous', groups: ['system:unauthenticated'] };

function review(group: string, kind: string, schema: TSchema, answer: (review: KubeObject) => Record<string, unknown>): ResourceDefinition {
  const plural = `${kind.toLowerCase()}s`;
  return {
    group, version: 'v1', kind, listKind: `${kind}List`, plural, singular: kind.toLowerCase(), namespaced: false,
    shortNames: [], categories: [], verbs: ['create'], subresources: {},
    schema, applyDefaults: noDefaults, validate: () => [], table: printerFor(kind), fieldSelectors: {}, answer,
  };
}

export const reviewDefinitions: readonly ResourceDefinition[] = [
  review('authorization.k8s.io', 'SelfSubjectAccessReview', SelfSubjectAccessReviewSchema, () => ({ allowed: true, reason: EVERYTHING })),
  review('authorization.k8s.io', 'SelfSubjectRulesReview', SelfSubjectRulesReviewSchema, () => ({
    resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
    nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
    incomplete: false,
  })),
  review('authentication.k8s.io', 'SelfSubjectReview', SelfSubjectReviewSchema, () => ({ userInfo: ANONYMOUS })),
];
