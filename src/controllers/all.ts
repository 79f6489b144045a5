// Every workload controller, in the order the manager starts them. Each entry builds one
// controller from the shared context (see context.ts).
import type { ControllerFactory } from './manager.js';
import { DaemonSetController } from './daemonset/daemonset-controller.js';
import { JobController } from './job/job-controller.js';
import { CronJobController } from './cronjob/cronjob-controller.js';
import { DeploymentController } from './deployment/deployment-controller.js';
import { DisruptionController } from './disruption/disruption-controller.js';
import { ReplicaSetController } from './replicaset/replicaset-controller.js';
import { StatefulSetController } from './statefulset/statefulset-controller.js';
import { REPLICATION_CONTROLLERS } from './replicaset/replicated-kinds.js';
import { garbageCollectorController } from './garbage-collector/index.js';
import { endpointsController } from './endpoints/index.js';
import { PodMetricsController } from './pod-metrics.js';
import { ServiceAccountsController } from './service-accounts.js';
import { ResourceQuotaController } from './resource-quota.js';
import { pytorchJobController, tfJobController } from './training/training-controller.js';
import { TransactionController } from './transactions/transaction-controller.js';
import { EphemeralVolumeController } from './volumes/ephemeral-volumes.js';
import { LocalPathProvisioner } from './volumes/local-path-provisioner.js';
import { PersistentVolumeController } from './volumes/pv-controller.js';
import { StorageProtectionController } from './volumes/protection.js';
import { HpaController } from './hpa/hpa-controller.js';

export const allControllers: readonly ControllerFactory[] = [
  (ctx) => new ReplicaSetController(ctx),
  (ctx) => new ReplicaSetController(ctx, {}, REPLICATION_CONTROLLERS),
  (ctx) => new DeploymentController(ctx),
  (ctx) => new DaemonSetController(ctx),
  (ctx) => new StatefulSetController(ctx),
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
  (ctx) => new PersistentVolumeController(ctx),
  (ctx) => new LocalPathProvisioner(ctx),
  (ctx) => new StorageProtectionController(ctx),
  (ctx) => new EphemeralVolumeController(ctx),
  (ctx) => new HpaController(ctx),
];
