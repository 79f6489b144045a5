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

export async function decodeBody(body: Buffer, contentType: string | undefined, accepted = OBJECT_MEDIA_TYPES): Promise<DecodedBody> {
  const decoded = await decodeInPlace(body, contentType, accepted);
  // Decoding a large body is a stage of its own: others go before what the request does next.
  const slice = new EventLoopSlice();
  slice.consider(decoded.value);
  await slice.pause();
  return decoded;
}

async function decodeInPlace(body: Buffer, contentType: string | undefined, accepted: string[]): Promise<DecodedBody> {
  const type = mediaType(contentType) || 'application/json';
  if (!accepted.includes(type)) throw unsupportedMediaType(type, accepted);
  if (type === PROTOBUF_CONTENT_TYPE) return { value: decodeProtobuf(body), duplicates: [] };
  const text = body.toString('utf8');
  if (text.trim() === '') throw badRequest('the request body is empty');
  if (type.endsWith('json')) return decodeJson(text);
  // JSON is YAML, and what kubectl sends as an apply configuration: JSON.parse is far faster.
  if (/^\s*[{[]/.test(text)) {
    try {
      return decodeJson(text);
    } catch (error) {
      if (!(error instanceof ApiError) || error.message.startsWith('the request body nests')) throw error;
    }
  }
  return parseYaml(text);
}

function decodeJson(text: string): DecodedBody {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    if (isStackOverflow(error)) throw tooDeep();
    throw badRequest(`the request body is not valid JSON: ${(error as Error).message}`);
  }
  return { value, duplicates: duplicateJsonFields(text) };
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
