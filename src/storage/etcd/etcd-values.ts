// How objects are stored as etcd values. etcd assigns a write's revision only when it commits,
// so, as kube-apiserver does, the stored JSON cannot carry its own resourceVersion: it is stored
// empty, in the place SQLite's JSON has it, and filled in from the key's mod_revision on read by
// splicing the text. The result is byte for byte the JSON the SQLite store would hand out, and
// a raw read or a watch event never has to parse and re-serialize the object.
import type { KubeObject } from '../../api/meta.js';
import { MAX_VALUE_BYTES, ValueTooLargeError } from '../errors.js';
import { withResourceVersion } from '../watch-hub.js';

// JSON text cannot hold this sequence inside a string (its quotes would be escaped), so each
// occurrence is a real key and value; the one in metadata is ours.
const EMPTY_VERSION = '"resourceVersion":""';
const EMPTY_VERSION_BYTES = Buffer.from(EMPTY_VERSION);

/** The object as its etcd value; throws ValueTooLargeError before anything reaches etcd. */
export function encodeValue(key: string, object: KubeObject): string {
  const text = JSON.stringify({ ...object, metadata: { ...object.metadata, resourceVersion: '' } });
  // A UTF-16 length under a third of the limit cannot reach it in UTF-8 bytes.
  if (text.length > MAX_VALUE_BYTES / 3) {
    const bytes = Buffer.byteLength(text);
    if (bytes > MAX_VALUE_BYTES) throw new ValueTooLargeError(key, bytes);
  }
  return text;
}

/** The stored text with its resourceVersion filled in. */
export function withRevisionText(text: string, revision: number | string): string {
  const at = text.indexOf(EMPTY_VERSION);
  if (at >= 0 && text.indexOf(EMPTY_VERSION, at + EMPTY_VERSION.length) < 0) {
    return `${text.slice(0, at)}"resourceVersion":"${revision}"${text.slice(at + EMPTY_VERSION.length)}`;
  }
  // Written by another tool, or an object whose nested fields hold an empty resourceVersion too.
  return JSON.stringify(withResourceVersion(JSON.parse(text) as KubeObject, Number(revision)));
}

export function decodeValue(value: Buffer, revision: number | string): KubeObject {
  return JSON.parse(withRevisionText(value.toString('utf8'), revision)) as KubeObject;
}

/**
 * withRevisionText on bytes, for raw reads: the value is never decoded to a string and back.
 * `ownMemory`: in a buffer of its own rather than a slice of Node's shared pool, for a value
 * kept for long (the watch cache's), whose slab would otherwise outlive it.
 */
export function withRevisionBytes(value: Buffer, revision: number | string, ownMemory = false): Buffer {
  const at = value.indexOf(EMPTY_VERSION_BYTES);
  if (at < 0 || value.indexOf(EMPTY_VERSION_BYTES, at + EMPTY_VERSION_BYTES.length) >= 0) {
    return textBytes(withRevisionText(value.toString('utf8'), revision), ownMemory);
  }
  const version = `"resourceVersion":"${revision}"`;
  const size = value.length - EMPTY_VERSION_BYTES.length + version.length;
  const out = ownMemory ? Buffer.allocUnsafeSlow(size) : Buffer.allocUnsafe(size);
  value.copy(out, 0, 0, at);
  const written = at + out.write(version, at, 'latin1');
  value.copy(out, written, at + EMPTY_VERSION_BYTES.length);
  return out;
}

/** The UTF-8 bytes of `text`; `ownMemory` as for withRevisionBytes. */
export function textBytes(text: string, ownMemory = false): Buffer {
  if (!ownMemory) return Buffer.from(text, 'utf8');
  const out = Buffer.allocUnsafeSlow(Buffer.byteLength(text, 'utf8'));
  out.write(text, 0, 'utf8');
  return out;
}
