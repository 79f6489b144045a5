// The few shapes the pages read; everything else is read defensively from plain JSON.
export interface ObjectMeta {
  name: string;
  namespace?: string;
  uid: string;
  resourceVersion?: string;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: Array<{ kind: string; name: string; uid: string; controller?: boolean }>;
}

export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  // Each kind's own shape: the pages read them defensively (`?.` and defaults throughout).
  spec?: any;
  status?: any;
  [key: string]: unknown;
}

export function keyOf(object: KubeObject): string {
  return object.metadata.namespace ? `${object.metadata.namespace}/${object.metadata.name}` : object.metadata.name;
}
