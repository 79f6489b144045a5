// The Kubernetes protobuf envelope: the magic prefix "k8s\0" followed by a runtime.Unknown
// {typeMeta = 1 {apiVersion = 1, kind = 2}, raw = 2, contentEncoding = 3, contentType = 4}
// (apimachinery pkg/runtime/generated.proto). `raw` is the object's own message.
import { malformed } from './errors.js';
import { WireReader, WireType } from './wire.js';

export const MAGIC = Uint8Array.of(0x6b, 0x38, 0x73, 0x00);

export interface Envelope {
  apiVersion: string;
  kind: string;
  raw: Uint8Array;
  contentEncoding: string;
  contentType: string;
}

const textDecoder = new TextDecoder();

export function readEnvelope(body: Uint8Array): Envelope {
  if (body.length < MAGIC.length || MAGIC.some((byte, i) => body[i] !== byte)) {
    throw malformed('the body does not start with the Kubernetes protobuf prefix "k8s\\x00"');
  }
  const envelope: Envelope = { apiVersion: '', kind: '', raw: new Uint8Array(0), contentEncoding: '', contentType: '' };
  const reader = new WireReader(body, MAGIC.length);
  while (!reader.done) {
    const tag = reader.readTag();
    if (tag.field > 4) {
      reader.skip(tag);
      continue;
    }
    if (tag.wireType !== WireType.lengthDelimited) throw malformed(`runtime.Unknown field ${tag.field} has wire type ${tag.wireType}`);
    const bytes = reader.readBytes();
    if (tag.field === 1) Object.assign(envelope, readTypeMeta(bytes));
    else if (tag.field === 2) envelope.raw = bytes;
    else if (tag.field === 3) envelope.contentEncoding = textDecoder.decode(bytes);
    else envelope.contentType = textDecoder.decode(bytes);
  }
  return envelope;
}

function readTypeMeta(bytes: Uint8Array): { apiVersion: string; kind: string } {
  const typeMeta = { apiVersion: '', kind: '' };
  const reader = new WireReader(bytes);
  while (!reader.done) {
    const tag = reader.readTag();
    if ((tag.field === 1 || tag.field === 2) && tag.wireType === WireType.lengthDelimited) {
      const value = textDecoder.decode(reader.readBytes());
      if (tag.field === 1) typeMeta.apiVersion = value;
      else typeMeta.kind = value;
    } else {
      reader.skip(tag);
    }
  }
  return typeMeta;
}
