// The control-plane components that run beside the API server in `drover server` and `drover up`
// (and alone as `drover scheduler`): each is an ordinary API client, as in Kubernetes.
import { hostname } from 'node:os';
import { ApiClient } from '../client/index.js';
import { allControllers } from '../controllers/all.js';
import { startControllerManager, type RunningControllerManager } from '../controllers/manager.js';
import { NodeLifecycleController } from '../controllers/node-lifecycle.js';
import { startScheduler, type RunningScheduler } from '../scheduler/scheduler.js';

export interface ControlPlaneOptions {
  /** The API server's URL. */
  server: string;
  /** Seconds pods stay on an unreachable node before they are deleted (default 60). */
  podEvictionTimeoutSeconds?: number;
}

export interface ControlPlane {
  scheduler: RunningScheduler;
  controllers: RunningControllerManager;
  stop(): Promise<void>;
}

export async function startControlPlane(options: ControlPlaneOptions): Promise<ControlPlane> {
  const schedulerApi = new ApiClient({ server: options.server, namespace: 'default' }, { userAgent: 'drover-scheduler' });
  const controllerApi = new ApiClient({ server: options.server, namespace: 'default' }, { userAgent: 'drover-controller-manager' });
  const scheduler = await startScheduler({ api: schedulerApi });
  const lifecycleConfig: ConstructorParameters<typeof NodeLifecycleController>[0] = { api: controllerApi };
  if (options.podEvictionTimeoutSeconds !== undefined) lifecycleConfig.podEvictionTimeoutSeconds = options.podEvictionTimeoutSeconds;
  const nodeLifecycle = new NodeLifecycleController(lifecycleConfig);
  await nodeLifecycle.start();
  // The embedded manager joins the controller farm under a name that survives restarts, so a
  // restarted server takes its shards back at once and `drover controller-manager` processes
  // started beside it share the work safely.
  const identity = `server-${hostname()}-${new URL(options.server).port}`;
  const controllers = await startControllerManager({ api: controllerApi, controllers: allControllers, farm: { identity } });
  return {
    scheduler,
    controllers,
    async stop() {
      await Promise.all([scheduler.stop(), nodeLifecycle.stop(), controllers.stop()]);
      schedulerApi.close();
      controllerApi.close();
    },
  };
}
