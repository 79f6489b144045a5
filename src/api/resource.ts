// What the API server needs to know about one kind of resource. Every built-in kind is
// described by one ResourceDefinition in src/api/registry.ts; the server's routes, discovery,
// OpenAPI document, tables, defaulting and validation are all driven from these.
import type { Authorizer, RuleLister, UserInfo } from '../auth/types.js';
import type { TSchema } from '@sinclair/typebox';
import type { FieldError, KubeObject } from './meta.js';

export interface TableColumn {
  name: string;
  /** OpenAPI type of the cell: string, integer, number, boolean, date. */
  type: 'string' | 'integer' | 'number' | 'boolean' | 'date';
  format?: string;
  description: string;
  /** 0 = always shown; >0 = shown only with `-o wide`. */
  priority: number;
}

export interface TablePrinter {
  columns: TableColumn[];
  /** One cell per column, in order. `now` lets AGE columns be computed consistently. */
  row(object: KubeObject, now: Date): unknown[];
}

/** Where /scale reads and writes for kinds with a scale subresource. */
export interface ScaleSubresource {
  specReplicasPath: string; // e.g. '.spec.replicas'
  statusReplicasPath: string; // e.g. '.status.replicas'
  labelSelectorPath?: string; // e.g. '.status.selector' or '.spec.selector'
  /** The selector at labelSelectorPath is a plain label map (a ReplicationController's), not a LabelSelector. */
  selectorIsMap?: boolean;
}

export interface ResourceDefinition {
  group: string; // '' for core
  version: string;
  kind: string;
  listKind: string;
  plural: string;
  singular: string;
  namespaced: boolean;
  shortNames: string[];
  categories: string[]; // e.g. ['all']
  /** Verbs advertised in discovery. */
  verbs: string[];
  /** approval: certificatesigningrequests/approval, which writes only the Approved and Denied conditions. */
  subresources: { status?: boolean; scale?: ScaleSubresource; approval?: boolean };
  /** JSON Schema (TypeBox) of the whole object, with descriptions and x-kubernetes-* extensions. */
  schema: TSchema;
  /** Fill in defaults in place (after decode, before validation) — as the Kubernetes defaulters do. */
  applyDefaults(object: KubeObject): void;
  /**
   * Kind-specific validation beyond the JSON schema (the server checks schema, names, labels
   * and annotations itself). `old` is set on update.
   */
  validate(object: KubeObject, old?: KubeObject): FieldError[];
  table: TablePrinter;
  /** Field selectors this kind supports besides metadata.name / metadata.namespace. */
  fieldSelectors: Record<string, (object: KubeObject) => string | undefined>;
  /**
   * Kinds whose schema is given at run time (custom resources): prunes unknown fields in place
   * and reports them and the type errors, instead of the generic walk of `schema`.
   */
  checkSchema?(object: KubeObject): { errors: FieldError[]; unknownFields: string[] };
  /** false where Kubernetes refuses strategic merge patch (custom resources: 415). */
  strategicMergePatch?: false;
  /**
   * Kinds served in a form other than the one stored: a custom resource's versions (stored in its
   * storage version), autoscaling/v1 HorizontalPodAutoscalers (stored as v2), events.k8s.io/v1
   * Events (stored as core/v1 Events). Every verb reads and writes through the converting view of
   * the store this describes (apiserver/registry/converting-store.ts), so watch, tables, patches
   * and server-side apply work as for any kind.
   */
  storedForm?: StoredForm;
  /**
   * For create-only kinds that are answered, not stored (SelfSubjectAccessReview): the status
   * of the answer to the object the client created, for the user who created it.
   */
  answer?(object: KubeObject, requester: Requester): Record<string, unknown> | Promise<Record<string, unknown>>;
}

/** How a kind's objects are stored: converted both ways, under its own keys or another kind's. */
export interface StoredForm {
  /** The object as stored, from the served form. Pure: what the served form cannot hold travels in the object (annotations). */
  toStored(object: KubeObject): KubeObject;
  /** The served form of a stored object: a new object (the store shares the one it returns). */
  fromStored(object: KubeObject): KubeObject;
  /** The kind whose keys hold these objects (events.k8s.io Events: core/v1's); none: this kind's own. */
  storedAs?: ResourceDefinition;
}

/** Who asks a review, and the server's authorizer to answer with (none: everyone may do everything). */
export interface Requester {
  user: UserInfo;
  authorizer?: Authorizer;
  rules?: RuleLister;
  /** The server's token authenticators and the audiences it accepts (TokenReview). */
  tokens?: ReviewTokenAuthenticator;
}

export interface ReviewTokenAuthenticator {
  apiAudiences: readonly string[];
  authenticateToken(token: string, audiences?: readonly string[]): Promise<UserInfo | undefined>;
}

export { apiVersionOf } from './group-version.js';
