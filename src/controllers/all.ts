// Every workload controller, in the order the manager starts them. Each entry builds one
// controller from the shared context (see context.ts).
import type { ControllerFactory } from './manager.js';
import { PodMetricsController } from './pod-metrics.js';
import { TransactionController } from './transactions/transaction-controller.js';

export const allControllers: readonly ControllerFactory[] = [
  // replicaset
  // deployment
  // daemonset
  // job
  // endpoints
  // garbage-collector
  (ctx) => new TransactionController(ctx),
  (ctx) => new PodMetricsController(ctx),
];
