// Request bodies into plain values: JSON, YAML and Kubernetes protobuf, each bounded in depth,
// decoded in time linear in its size, and with the keys it gave twice (which strict field
// validation reports). Malformed input is a 400, whatever the parser threw.
import { ApiError, badRequest, unsupportedMediaType } from '../errors.js';
import { EventLoopSlice } from '../event-loop-slice.js';
import { mediaType } from '../http-io.js';
import { decodeKubernetesProtobuf, ProtobufDecodeError, PROTOBUF_CONTENT_TYPE } from '../protobuf/index.js';
import { duplicateJsonFields } from './json-fields.js';
import { checkDepth, isStackOverflow, tooDeep } from './limits.js';
import { parseYaml } from './yaml-offload.js';

export interface DecodedBody {
  value: unknown;
  /** Paths of members given more than once (the last one counts), e.g. `metadata.name`. */
  duplicates: string[];
}

export const OBJECT_MEDIA_TYPES = ['application/json', 'application/yaml', PROTOBUF_CONTENT_TYPE];

/** The body decoded, and the write's slice that has counted it: the registry goes on with it (event-loop-slice.ts). */
export async function decodeBody(
  body: Buffer,
  contentType: string | undefined,
  accepted = OBJECT_MEDIA_TYPES,
): Promise<DecodedBody & { slice: EventLoopSlice }> {
  const decoded = await decodeInPlace(body, contentType, accepted);
  // Decoding a large body is a stage of its own: others go before what the request does next.
  const slice = new EventLoopSlice();
  slice.consider(decoded.value);
  await slice.pause();
  return { ...decoded, slice };
}

async function decodeInPlace(body: Buffer, contentType: string | undefined, accepted: string[]): Promise<DecodedBody> {
  // No Content-Type is a 415, as in Kubernetes: a web page's cross-site "simple" POST (which
  // cannot set a JSON type without a preflight) must never be taken for a write.
  const type = mediaType(contentType);
  if (!accepted.includes(type)) throw unsupportedMediaType(type, accepted);
  if (type === PROTOBUF_CONTENT_TYPE) return { value: decodeProtobuf(body), duplicates: [] };
  const text = body.toString('utf8');
  if (text.trim() === '') throw badRequest('the request body is empty');
  if (type.endsWith('json')) {
    const parsed = parseJson(text);
    if ('error' in parsed) throw badRequest(`the request body is not valid JSON: ${parsed.error}`);
    return { value: parsed.value, duplicates: await duplicatesAfterTurn(text) };
  }
  // JSON is YAML, and what kubectl sends as an apply configuration: JSON.parse is far faster.
  if (/^\s*[{[]/.test(text)) {
    const parsed = parseJson(text);
    if ('value' in parsed) return { value: parsed.value, duplicates: await duplicatesAfterTurn(text) };
  }
  return parseYaml(text);
}

/** Above this, parsing a JSON body and scanning it for duplicates each take a turn of the loop. */
const LARGE_JSON_BYTES = 256 * 1024;

/** The duplicate scan of a large body (15 ms for 1.3 MiB) waits for a later turn than its parse. */
async function duplicatesAfterTurn(text: string): Promise<string[]> {
  if (text.length > LARGE_JSON_BYTES) await new Promise<void>((resolve) => setImmediate(resolve));
  return duplicateJsonFields(text);
}

/** JSON.parse, with what it found wrong instead of a throw; nesting past the stack is a 400. */
function parseJson(text: string): { value: unknown } | { error: string } {
  try {
    return { value: JSON.parse(text) };
  } catch (error) {
    if (isStackOverflow(error)) throw tooDeep();
    return { error: (error as Error).message };
  }
}

/** kubectl's create subcommands send Kubernetes protobuf; it decodes to the same object as JSON. */
function decodeProtobuf(body: Buffer): unknown {
  let value: unknown;
  try {
    value = decodeKubernetesProtobuf(body);
  } catch (error) {
    if (error instanceof ProtobufDecodeError) throw new ApiError(error.code, error.reason, error.message);
    if (isStackOverflow(error)) throw tooDeep();
    throw error;
  }
  checkDepth(value);
  return value;
}
