// events.k8s.io/v1 ⇄ core/v1 Event, field for field as Kubernetes converts them: regarding is
// involvedObject, note is message, reportingController is reportingComponent, and the legacy
// fields keep their core names behind a deprecated* prefix. Nothing is lost either way.
import type { KubeObject } from '../meta.js';

/** events.k8s.io/v1 name → core/v1 name, for the fields that differ; the rest share theirs. */
const RENAMED: ReadonlyArray<readonly [string, string]> = [
  ['regarding', 'involvedObject'],
  ['note', 'message'],
  ['reportingController', 'reportingComponent'],
  ['deprecatedSource', 'source'],
  ['deprecatedFirstTimestamp', 'firstTimestamp'],
  ['deprecatedLastTimestamp', 'lastTimestamp'],
  ['deprecatedCount', 'count'],
];

function renamed(object: KubeObject, pairs: ReadonlyArray<readonly [string, string]>, apiVersion: string): KubeObject {
  // A new object with new metadata: the store shares the one it returns with its watchers.
  const out: KubeObject = { ...object, apiVersion, kind: 'Event', metadata: { ...object.metadata } };
  for (const [from, to] of pairs) {
    delete out[from];
    if (object[from] !== undefined) out[to] = object[from];
  }
  return out;
}

const REVERSED = RENAMED.map(([v1, core]) => [core, v1] as const);

export function eventV1ToCore(event: KubeObject): KubeObject {
  return renamed(event, RENAMED, 'v1');
}

export function eventCoreToV1(event: KubeObject): KubeObject {
  return renamed(event, REVERSED, 'events.k8s.io/v1');
}
