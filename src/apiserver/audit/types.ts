// The shapes of Kubernetes' audit.k8s.io/v1 API that Drover writes (Event) and reads (Policy),
// with the JSON field names kube-apiserver uses, so log shippers built for it read ours.
import type { RequestAttributes, UserInfo } from '../../auth/types.js';

export type Level = 'None' | 'Metadata' | 'Request' | 'RequestResponse';
export const LEVELS: readonly Level[] = ['None', 'Metadata', 'Request', 'RequestResponse'];

export type Stage = 'RequestReceived' | 'ResponseStarted' | 'ResponseComplete' | 'Panic';
export const STAGES: readonly Stage[] = ['RequestReceived', 'ResponseStarted', 'ResponseComplete', 'Panic'];

/** Whether `level` records at least what `least` does. */
export function levelAtLeast(level: Level, least: Level): boolean {
  return LEVELS.indexOf(level) >= LEVELS.indexOf(least);
}

export interface GroupResources {
  /** '' is the core group. */
  group?: string;
  // 'pods', 'pods/log', '*', '*/status', 'deployments/*'; empty: every resource of the group.
  resources?: string[];
  resourceNames?: string[];
}

export interface PolicyRule {
  level: Level;
  users?: string[];
  userGroups?: string[];
  verbs?: string[];
  resources?: GroupResources[];
  /** '' matches cluster-scoped resources. */
  namespaces?: string[];
  /** Paths, or prefixes ending in '*'. */
  nonResourceURLs?: string[];
  omitStages?: Stage[];
  omitManagedFields?: boolean;
}

export interface Policy {
  rules: PolicyRule[];
  omitStages?: Stage[];
  omitManagedFields?: boolean;
}

/** What the policy decides for one request. */
export interface RequestAuditConfig {
  level: Level;
  omitStages: ReadonlySet<Stage>;
  omitManagedFields: boolean;
}

/** What a request is, in the terms the policy's rules match on: authorization's attributes. */
export type AuditAttributes = RequestAttributes;

export interface ObjectReference {
  resource?: string;
  namespace?: string;
  name?: string;
  apiGroup?: string;
  apiVersion?: string;
  subresource?: string;
}

export interface ResponseStatus {
  metadata: Record<string, never>;
  status?: string;
  message?: string;
  reason?: string;
  code: number;
}

export interface AuditEvent {
  kind: 'Event';
  apiVersion: 'audit.k8s.io/v1';
  level: Level;
  auditID: string;
  stage: Stage;
  requestURI: string;
  verb: string;
  user: UserInfo;
  /** Who the request acted as, when it impersonated someone (kubectl --as). */
  impersonatedUser?: UserInfo;
  sourceIPs: string[];
  userAgent?: string;
  objectRef?: ObjectReference;
  responseStatus?: ResponseStatus;
  requestReceivedTimestamp: string;
  stageTimestamp: string;
  annotations?: Record<string, string>;
}

/**
 * What the handlers tell a request's audit entry: the decoded request body, which also names
 * the object of a create (the answer reaches it through http-io.ts). Below Request level the
 * call only reads the name: the body is serialized only when the level keeps it.
 */
export interface AuditRecorder {
  requestObject(value: unknown): void;
}
