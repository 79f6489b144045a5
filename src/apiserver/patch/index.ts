// The three patch types of the Kubernetes API, behind one entry point. Server-side apply
// (application/apply-patch+yaml) is not a patch of this kind and lives in ./apply/.
import type { JsonSchema } from '../../api/schema-nav.js';
import { malformedPatch } from './errors.js';
import { applyJsonPatch } from './json-patch.js';
import { applyMergePatch } from './merge-patch.js';
import { applyStrategicMergePatch } from './strategic-merge-patch.js';

export { PatchError, type PatchErrorReason } from './errors.js';
export { applyJsonPatch, parseJsonPatch, type JsonPatchOperation } from './json-patch.js';
export { applyMergePatch } from './merge-patch.js';
export { applyStrategicMergePatch } from './strategic-merge-patch.js';

export const JSON_PATCH = 'application/json-patch+json';
export const MERGE_PATCH = 'application/merge-patch+json';
export const STRATEGIC_MERGE_PATCH = 'application/strategic-merge-patch+json';
export const PATCH_CONTENT_TYPES: readonly string[] = [JSON_PATCH, MERGE_PATCH, STRATEGIC_MERGE_PATCH];

/**
 * Applies a PATCH body to the current object and returns the new object (the inputs are not
 * changed). `patchBody` is either the raw request body (a Buffer or other Uint8Array, parsed
 * here as JSON) or an already decoded JSON value. Throws PatchError: reason BadRequest (400)
 * for a malformed patch, Invalid (422) for one that does not apply to this object.
 */
export function applyPatch(contentType: string, current: unknown, patchBody: unknown, schema: JsonSchema | undefined): unknown {
  const patch = patchBody instanceof Uint8Array ? decodeJson(patchBody) : patchBody;
  try {
    switch (mediaType(contentType)) {
      case JSON_PATCH:
        return applyJsonPatch(current, patch);
      case MERGE_PATCH:
        return applyMergePatch(current, patch);
      case STRATEGIC_MERGE_PATCH:
        return applyStrategicMergePatch(current, patch, schema);
      default:
        throw malformedPatch(`unsupported patch type ${JSON.stringify(contentType)}; expected one of ${PATCH_CONTENT_TYPES.join(', ')}`);
    }
  } catch (error) {
    // The patch code recurses over the document; absurd nesting must be a 400, not a 500.
    if (error instanceof RangeError && /call stack/i.test(error.message)) throw malformedPatch('the patch is nested too deeply');
    throw error;
  }
}

function mediaType(contentType: string): string {
  return (contentType.split(';')[0] ?? '').trim().toLowerCase();
}

function decodeJson(body: Uint8Array): unknown {
  const text = Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8');
  if (text.trim() === '') throw malformedPatch('the patch body is empty');
  try {
    return JSON.parse(text);
  } catch (error) {
    throw malformedPatch(`the patch is not valid JSON: ${(error as Error).message}`);
  }
}
