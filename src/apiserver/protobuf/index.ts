// Decoding of request bodies kubectl and client-go send as Kubernetes protobuf
// (Content-Type: application/vnd.kubernetes.protobuf) into the plain JSON object the JSON path
// would have produced. Responses stay JSON, which every client accepts.
import { decodeMessage } from './decode.js';
import { readEnvelope } from './envelope.js';
import { malformed, ProtobufDecodeError } from './errors.js';
import { schemaFor } from './registry.js';

export { ProtobufDecodeError } from './errors.js';
export { supportedKinds as supportedProtobufKinds } from './registry.js';

export const PROTOBUF_CONTENT_TYPE = 'application/vnd.kubernetes.protobuf';

/**
 * Decodes a `k8s\0`-prefixed runtime.Unknown envelope. Throws ProtobufDecodeError: code 400 for
 * malformed input, 415 for a kind without a message table.
 */
export function decodeKubernetesProtobuf(body: Uint8Array): Record<string, unknown> {
  const envelope = readEnvelope(body);
  const { apiVersion, kind } = envelope;
  if (kind === '' || apiVersion === '') throw malformed('the protobuf envelope does not name an apiVersion and kind');
  if (envelope.contentEncoding !== '') throw malformed(`unsupported protobuf content encoding ${JSON.stringify(envelope.contentEncoding)}`);
  if (envelope.contentType !== '' && envelope.contentType !== PROTOBUF_CONTENT_TYPE) {
    throw malformed(`unsupported content type ${JSON.stringify(envelope.contentType)} inside the protobuf envelope`);
  }
  const schema = schemaFor(apiVersion, kind);
  if (schema === undefined) {
    throw new ProtobufDecodeError('unsupported-kind', `${kind} (${apiVersion}) cannot be sent as protobuf to this server; send it as application/json`);
  }
  return { apiVersion, kind, ...decodeMessage(envelope.raw, schema, kind) };
}
