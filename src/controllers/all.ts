// Every workload controller, in the order the manager starts them. Each entry builds one
// controller from the shared context (see context.ts).
import type { ControllerFactory } from './manager.js';
import { DaemonSetController } from './daemonset/daemonset-controller.js';
import { JobController } from './job/job-controller.js';
import { CronJobController } from './cronjob/cronjob-controller.js';
import { DeploymentController } from './deployment/deployment-controller.js';
import { DisruptionController } from './disruption/disruption-controller.js';
import { ReplicaSetController } from './replicaset/replicaset-controller.js';
import { garbageCollectorController } from './garbage-collector/index.js';
import { endpointsController } from './endpoints/index.js';
import { PodMetricsController } from './pod-metrics.js';
import { ServiceAccountsController } from './service-accounts.js';
import { ResourceQuotaController } from './resource-quota.js';
import { pytorchJobController, tfJobController } from './training/training-controller.js';
import { TransactionController } from './transactions/transaction-controller.js';
import { HpaController } from './hpa/hpa-controller.js';

export const allControllers: readonly ControllerFactory[] = [
  (ctx) => new ReplicaSetController(ctx),
  (ctx) => new DeploymentController(ctx),
  (ctx) => new DaemonSetController(ctx),
  (ctx) => new JobController(ctx),
  (ctx) => new CronJobController(ctx),
  pytorchJobController,
  tfJobController,
  endpointsController,
  garbageCollectorController,
  (ctx) => new TransactionController(ctx),
  (ctx) => new PodMetricsController(ctx),
  (ctx) => new ServiceAccountsController(ctx),
  (ctx) => new DisruptionController(ctx),
  (ctx) => new ResourceQuotaController(ctx),
  (ctx) => new HpaController(ctx),
];
