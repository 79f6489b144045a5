// The body of the control-plane thread (see control-plane-thread.ts): starts the scheduler and
// the controllers, reports that they run, and stops them when asked.
import '../apiserver/prototype-guard.js';
import { parentPort, workerData } from 'node:worker_threads';
import { componentRegistry } from '../metrics/component-metrics.js';
import { podStartStages } from '../metrics/pod-start-stages.js';
import { startControlPlane, type ControlPlaneOptions } from './control-plane.js';
import type { FromControlPlane, ToControlPlane } from './control-plane-thread.js';

const port = parentPort!;
const send = (message: FromControlPlane) => port.postMessage(message);

// As in the main thread (cli/main.ts): one failed operation must not take the control plane down.
process.on('unhandledRejection', (reason) => {
  console.error('unhandled rejection in the control plane (kept running):', reason);
});

try {
  const controlPlane = await startControlPlane(workerData as ControlPlaneOptions);
  port.on('message', (message: ToControlPlane) => {
    if (message.type === 'metrics') {
      void componentRegistry.getMetricsAsJSON().then((metrics) => send({ type: 'metrics', id: message.id, metrics }));
      return;
    }
    if (message.type === 'podStartStages') {
      send({ type: 'podStartStages', id: message.id, podStartStages: podStartStages.list() });
      return;
    }
    controlPlane.stop().then(
      () => {
        send({ type: 'stopped' });
        port.close();
      },
      (error: unknown) => send({ type: 'failed', message: String(error) }),
    );
  });
  send({ type: 'running' });
} catch (error) {
  send({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
}
