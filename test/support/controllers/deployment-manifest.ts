// A Deployment manifest for the controller tests that create Deployments through the API
// server: `name` selecting app=name, busybox:1 sleeping, with what the options change.
import type { Deployment } from '../../../src/controllers/deployment/types.js';

/** A pod-template label the tests' fake agent leaves alone: pods that never run. */
export const STUCK_LABEL = 'test/stuck';

/** `stuck`: its pods carry STUCK_LABEL. */
export function deploymentManifest(
  name: string,
  replicas: number,
  options: {
    image?: string;
    strategy?: Deployment['spec']['strategy'];
    extra?: Partial<Deployment['spec']>;
    annotations?: Record<string, string>;
    stuck?: boolean;
  } = {},
): Deployment {
  const labels: Record<string, string> = { app: name };
  const templateLabels = options.stuck ? { ...labels, [STUCK_LABEL]: 'true' } : labels;
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'default', ...(options.annotations ? { annotations: options.annotations } : {}) },
    spec: {
      replicas,
      selector: { matchLabels: labels },
      template: {
        metadata: { labels: templateLabels },
        spec: { containers: [{ name: 'main', image: options.image ?? 'drover-test/busybox:1', command: ['sleep', '3600'] }] },
      },
      ...(options.strategy ? { strategy: options.strategy } : {}),
      ...options.extra,
    },
  };
}
