// serviceaccounts/token (authentication.k8s.io/v1 TokenRequest), as kube-apiserver serves it:
// `kubectl create token NAME --duration 10m`, and the agent asking for a pod's projected token.
// The token is made for the account as stored now (its uid goes into the token, so a deleted and
// recreated account's old tokens stop working) and, when spec.boundObjectRef names a Pod or a
// Secret, bound to that object: it dies with it.
import { isObject, type FieldError, type KubeObject } from '../../api/meta.js';
import { findResource } from '../../api/registry.js';
import type { ServiceAccountTokens, TokenSubject } from '../../auth/serviceaccount/tokens.js';
import { decodeBody } from '../decode/index.js';
import { badRequest, conflict, invalid } from '../errors.js';
import { negotiate, readBody, writeJson } from '../http-io.js';
import { ref } from '../registry/object-registry.js';
import { parseDryRun, type ResourceRequest } from './context.js';

export const DEFAULT_EXPIRATION_SECONDS = 3600;
export const MIN_EXPIRATION_SECONDS = 600;
const BOUND_KINDS = new Set(['Pod', 'Secret']);

export interface TokenRequestSpec {
  audiences: string[];
  expirationSeconds: number;
  boundObjectRef?: { kind: string; apiVersion: string; name: string; uid?: string };
}

/** Defaults and validation of a TokenRequest's spec; field errors as Kubernetes words them. */
export function tokenRequestSpec(body: Record<string, unknown>, apiAudiences: string[]): { spec: TokenRequestSpec; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const given = isObject(body['spec']) ? body['spec'] : {};
  const audiences = Array.isArray(given['audiences']) && given['audiences'].length > 0 ? given['audiences'] : apiAudiences;
  if (!audiences.every((a): a is string => typeof a === 'string' && a !== '')) {
    errors.push({ field: 'spec.audiences', type: 'FieldValueInvalid', message: 'Invalid value: audiences must be non-empty strings' });
  }
  const expiration = given['expirationSeconds'] ?? DEFAULT_EXPIRATION_SECONDS;
  if (typeof expiration !== 'number' || !Number.isInteger(expiration)) {
    errors.push({ field: 'spec.expirationSeconds', type: 'FieldValueInvalid', message: `Invalid value: ${JSON.stringify(expiration)}: must be an integer` });
  } else if (expiration < MIN_EXPIRATION_SECONDS) {
    errors.push({
      field: 'spec.expirationSeconds',
      type: 'FieldValueInvalid',
      message: `Invalid value: ${expiration}: may not specify a duration less than 10 minutes`,
    });
  } else if (expiration > 2 ** 32) {
    errors.push({
      field: 'spec.expirationSeconds',
      type: 'FieldValueInvalid',
      message: `Invalid value: ${expiration}: may not specify a duration larger than 2^32 seconds`,
    });
  }
  const spec: TokenRequestSpec = { audiences: audiences as string[], expirationSeconds: expiration as number };
  const bound = given['boundObjectRef'];
  if (bound !== undefined && bound !== null) {
    const fields = isObject(bound) ? bound : {};
    const kind = typeof fields['kind'] === 'string' ? fields['kind'] : '';
    const name = typeof fields['name'] === 'string' ? fields['name'] : '';
    if (!BOUND_KINDS.has(kind))
      errors.push({
        field: 'spec.boundObjectRef.kind',
        type: 'FieldValueNotSupported',
        message: `Unsupported value: "${kind}": supported values: "Pod", "Secret"`,
      });
    if (fields['apiVersion'] !== undefined && fields['apiVersion'] !== 'v1') {
      errors.push({
        field: 'spec.boundObjectRef.apiVersion',
        type: 'FieldValueNotSupported',
        message: `Unsupported value: "${String(fields['apiVersion'])}": supported values: "v1"`,
      });
    }
    if (!name) errors.push({ field: 'spec.boundObjectRef.name', type: 'FieldValueRequired', message: 'Required value' });
    spec.boundObjectRef = { kind, apiVersion: 'v1', name, ...(typeof fields['uid'] === 'string' && fields['uid'] ? { uid: fields['uid'] } : {}) };
  }
  return { spec, errors };
}

export function tokenRequestHandler(tokens: ServiceAccountTokens): (ctx: ResourceRequest) => Promise<void> {
  return async (ctx) => {
    if (ctx.req.method !== 'POST') throw badRequest('serviceaccounts/token only supports POST');
    const { value: body } = await decodeBody(await readBody(ctx.req), ctx.req.headers['content-type']);
    ctx.audit?.requestObject(body);
    if (!isObject(body)) throw badRequest('the body must be a TokenRequest object');
    if (body['kind'] !== undefined && body['kind'] !== 'TokenRequest') throw badRequest(`the kind in the body (${String(body['kind'])}) must be TokenRequest`);
    const namespace = ctx.path.namespace!;
    const name = ctx.path.name!;
    const { spec, errors } = tokenRequestSpec(body, tokens.apiAudiences);
    if (errors.length > 0) throw invalid('TokenRequest', '', 'authentication.k8s.io', errors);
    const account = await ctx.registry.get(ctx.def, namespace, name);
    const subject: TokenSubject = { namespace, serviceAccount: { name, uid: account.metadata.uid ?? '' } };
    if (spec.boundObjectRef) {
      const bound = await boundObject(ctx, namespace, spec.boundObjectRef);
      const target = { name: bound.metadata.name ?? '', uid: bound.metadata.uid ?? '' };
      if (spec.boundObjectRef.kind === 'Pod') {
        const podAccount = (bound['spec'] as { serviceAccountName?: string } | undefined)?.serviceAccountName || 'default';
        if (podAccount !== name) throw badRequest(`cannot bind token for serviceaccount "${name}" to pod running with different serviceaccount name.`);
        subject.pod = target;
      } else {
        subject.secret = target;
      }
      spec.boundObjectRef.uid = target.uid;
    }
    const issued = parseDryRun(ctx.query) ? { token: '', expiresAt: tokens.now() + spec.expirationSeconds } : tokens.issue({ ...subject, ...spec });
    const answer = {
      kind: 'TokenRequest',
      apiVersion: 'authentication.k8s.io/v1',
      metadata: { ...(isObject(body['metadata']) ? body['metadata'] : {}), name, namespace, creationTimestamp: null },
      spec,
      status: { token: issued.token, expirationTimestamp: new Date(issued.expiresAt * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z') },
    };
    writeJson(ctx.res, 201, answer, negotiate(ctx.req.headers.accept, false));
  };
}

/** The Pod or Secret a token is bound to, in the account's namespace, with the uid the request names. */
async function boundObject(ctx: ResourceRequest, namespace: string, reference: NonNullable<TokenRequestSpec['boundObjectRef']>): Promise<KubeObject> {
  const def = findResource('', 'v1', reference.kind === 'Pod' ? 'pods' : 'secrets')!;
  const object = await ctx.registry.get(def, namespace, reference.name);
  if (reference.uid && object.metadata.uid !== reference.uid) {
    throw conflict(
      ref(def, reference.name),
      `the UID in the bound object reference (${reference.uid}) does not match the UID in record. The object might have been deleted and then recreated`,
    );
  }
  return object;
}
