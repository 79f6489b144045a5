// The smallest valid StatefulSet the controller tests start from: `replicas` pods of busybox
// behind a governing Service of the set's own name.
import type { StatefulSet } from '../../../src/controllers/statefulset/types.js';

export function statefulSetManifest(name: string, replicas: number): StatefulSet {
  return {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name, namespace: 'default' },
    spec: {
      replicas,
      serviceName: name,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'main', image: 'drover-test/busybox:1' }] } },
    },
  };
}
