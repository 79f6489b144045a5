// Events about pods and their containers, as the kubelet writes them: the container ones
// point at the container through fieldPath (spec.containers{name}), which is how
// `kubectl describe pod` shows them.
import type { EventRecorder, EventType, ObjectReference } from '../../client/index.js';
import type { Pod } from '../../api/core/index.js';

export class PodEvents {
  constructor(private readonly recorder: EventRecorder) {}

  pod(pod: Pod, type: EventType, reason: string, message: string): void {
    void this.recorder.record(reference(pod), type, reason, message);
  }

  container(pod: Pod, name: string, isInit: boolean, type: EventType, reason: string, message: string): void {
    const fieldPath = `spec.${isInit ? 'initContainers' : 'containers'}{${name}}`;
    void this.recorder.record({ ...reference(pod), fieldPath }, type, reason, message);
  }

  flush(): Promise<void> {
    return this.recorder.flush();
  }
}

function reference(pod: Pod): ObjectReference {
  const ref: ObjectReference = { apiVersion: 'v1', kind: 'Pod' };
  if (pod.metadata.namespace) ref.namespace = pod.metadata.namespace;
  if (pod.metadata.name) ref.name = pod.metadata.name;
  if (pod.metadata.uid) ref.uid = pod.metadata.uid;
  if (pod.metadata.resourceVersion) ref.resourceVersion = pod.metadata.resourceVersion;
  return ref;
}
