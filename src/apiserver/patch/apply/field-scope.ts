// Which fields of an object take part in field management. As in Kubernetes, identity and
// server-maintained metadata are never owned, and the main resource and its status
// subresource each track only their own half of the object.

export interface FieldScope {
  /** 'status', 'scale', ... when the write goes through a subresource. */
  subresource?: string;
}

// Kubernetes strips the same list from every managed set (apiVersion and kind as well).
const untrackedMetadata = new Set([
  'name',
  'namespace',
  'uid',
  'resourceVersion',
  'generation',
  'creationTimestamp',
  'managedFields',
  'selfLink',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
]);

/** True for a top-level field that this write does not manage. */
export function isUntrackedRootField(name: string, scope: FieldScope): boolean {
  if (name === 'apiVersion' || name === 'kind') return true;
  // Writes to the main resource never set status, and status writes never set spec.
  // A CSR's approval subresource writes status (its conditions) as the status subresource does.
  const statusWrite = scope.subresource === 'status' || scope.subresource === 'approval';
  if (name === 'status') return !statusWrite;
  if (name === 'spec') return statusWrite;
  return false;
}

export function isUntrackedMetadataField(name: string): boolean {
  return untrackedMetadata.has(name);
}
