// kubeflow.org/v1 PyTorchJob and TFJob, with the Kubeflow training operator's v1 schemas (field
// names, defaults and meanings as in its common_types.go, pytorchjob_types.go, tfjob_types.go),
// so manifests that run on Kubeflow apply to Drover unchanged. One generic replica spec, run
// policy and job status serve both frameworks, as in Kubeflow.
import { bool, enumStr, field, int32, int64, list, map, named, quantity, str, struct, time } from './builders.js';
import { LabelSelector, kindSchema } from './meta.js';
import { PodTemplateSpec } from './pod.js';

const KF = 'org.kubeflow.v1';

export const REPLICA_RESTART_POLICIES = ['Always', 'OnFailure', 'Never', 'ExitCode'] as const;
export const CLEAN_POD_POLICIES = ['All', 'Running', 'None'] as const;
export const JOB_CONDITION_TYPES = ['Created', 'Running', 'Restarting', 'Succeeded', 'Suspended', 'Failed'] as const;
/** Drover's addition to Kubeflow's run policy: what a failure of one replica restarts. */
export const RESTART_SCOPES = ['Replica', 'Gang'] as const;
export const PYTORCH_REPLICA_TYPES = ['Master', 'Worker'] as const;
export const TF_REPLICA_TYPES = ['Chief', 'Master', 'PS', 'Worker', 'Evaluator'] as const;
export const TF_SUCCESS_POLICIES = ['', 'AllWorkers'] as const;

const ReplicaSpec = named(
  `${KF}.ReplicaSpec`,
  struct('How many pods of one replica type to run, from which template, restarted how.', {
    replicas: int32('Desired number of replicas of this type. Defaults to 1.', { minimum: 0 }),
    template: field(PodTemplateSpec, "Template of the pods of this replica type. Its restartPolicy is overwritten by the replica's."),
    restartPolicy: enumStr(
      'Always, OnFailure, Never or ExitCode. ExitCode runs the pod with restartPolicy Never and recreates it when a container exits with 128 or more (retryable: killed by a signal), and fails the job at once on 1-127. Defaults per framework: PyTorchJob OnFailure, TFJob Never.',
      REPLICA_RESTART_POLICIES,
    ),
  }),
);

const SchedulingPolicy = named(
  `${KF}.SchedulingPolicy`,
  struct("How the job's pods are gang-scheduled: copied to the job's PodGroup.", {
    minAvailable: int32("Pods that must be placeable together before any is bound (the PodGroup's minMember). Defaults to all replicas of the job.", {
      minimum: 1,
    }),
    queue: str('Queue of the job (kept for compatibility with Volcano; Drover has one queue).'),
    minResources: map("Resources the gang needs in all (e.g. cpu, nvidia.com/gpu); defaults to the sum of its pods' requests.", quantity('A quantity.')),
    priorityClass: str('Priority class of the PodGroup: groups of higher priority are placed first.'),
    scheduleTimeoutSeconds: int32('Seconds a partially placed gang may hold its places before all of them are released. Defaults to 60.', { minimum: 1 }),
  }),
);

const RunPolicy = named(
  `${KF}.RunPolicy`,
  struct('Policies shared by every kind of training job.', {
    cleanPodPolicy: enumStr(
      'Which pods to delete when the job ends, however it ends: All, Running (those still running) or None. Defaults to None.',
      CLEAN_POD_POLICIES,
    ),
    ttlSecondsAfterFinished: int32('Seconds after the job finished (Succeeded or Failed) after which it is deleted. Unset keeps it.', { minimum: 0 }),
    activeDeadlineSeconds: int64('Seconds from status.startTime after which the job fails and its pods are stopped.', { minimum: 1 }),
    backoffLimit: int32('Restarts and recreations of pods (every one counts, ExitCode recreations and gang restarts included) before the job fails.', {
      minimum: 0,
    }),
    schedulingPolicy: field(SchedulingPolicy, "Gang scheduling of the job's pods."),
    suspend: bool("When true, the job's pods and services are deleted and the job waits; setting it back to false recreates them. Defaults to false."),
    managedBy: str("Controller that reconciles the job; empty or kubeflow.org/training-operator means Drover's own."),
    restartScope: enumStr(
      'Drover extension. Replica (the default): a failed pod is restarted or recreated on its own. Gang: when one pod fails, every pod of the job is deleted and the whole gang recreated (and scheduled as a gang again); each gang restart counts once against backoffLimit.',
      RESTART_SCOPES,
    ),
  }),
);

const JobCondition = named(
  `${KF}.JobCondition`,
  struct(
    'One observed state of a training job.',
    {
      type: enumStr('Created, Running, Restarting, Succeeded, Suspended or Failed.', JOB_CONDITION_TYPES),
      status: enumStr('True, False or Unknown.', ['True', 'False', 'Unknown']),
      reason: str('Machine-readable reason, e.g. PyTorchJobSucceeded, BackoffLimitExceeded.'),
      message: str('Human-readable details.'),
      lastUpdateTime: time('When the condition was last updated.'),
      lastTransitionTime: time('When the condition last changed status.'),
    },
    ['type', 'status'],
  ),
);

const ReplicaStatus = named(
  `${KF}.ReplicaStatus`,
  struct('Pods of one replica type.', {
    active: int32('Pods of this type that are running or pending.'),
    succeeded: int32('Pods of this type that succeeded.'),
    failed: int32('Pods of this type that failed.'),
    labelSelector: field(LabelSelector, 'Selector of the pods of this type.'),
    selector: str('The same selector in its string form.'),
  }),
);

const JobStatus = named(
  `${KF}.JobStatus`,
  struct('Observed state of a training job.', {
    conditions: list("The job's conditions; the last one is its current state.", JobCondition, { 'x-kubernetes-list-type': 'atomic' }),
    replicaStatuses: map('Status of the pods of each replica type, by type.', ReplicaStatus),
    startTime: time('When the controller started the job.'),
    completionTime: time('When the job ended (Succeeded or Failed).'),
    lastReconcileTime: time('When the controller last looked at the job.'),
    restarts: int32('Drover: restarts and recreations counted against backoffLimit so far.'),
  }),
);

const ElasticPolicy = named(
  `${KF}.ElasticPolicy`,
  struct('Elastic training (torchrun) settings. Drover runs a fixed number of workers and passes these through as PET_* variables.', {
    minReplicas: int32('Lower bound of workers.'),
    maxReplicas: int32('Upper bound of workers.'),
    rdzvBackend: enumStr('Rendezvous backend: c10d, etcd or etcd-v2.', ['c10d', 'etcd', 'etcd-v2']),
    rdzvPort: int32('Rendezvous port.'),
    rdzvHost: str('Rendezvous host.'),
    rdzvId: str('Rendezvous id.'),
    rdzvConf: list('Extra rendezvous settings.', struct('A key and value.', { key: str('Key.'), value: str('Value.') })),
    standalone: bool('Standalone rendezvous.'),
    nProcPerNode: int32('Deprecated: use spec.nprocPerNode.'),
    maxRestarts: int32('Restarts torchrun allows before it fails.'),
  }),
);

function replicaSpecs(framework: string, types: readonly string[]) {
  return map(`${framework} replica specs by replica type (${types.join(', ')}).`, ReplicaSpec);
}

export const PyTorchJobSchema = kindSchema(
  { group: 'kubeflow.org', version: 'v1', kind: 'PyTorchJob' },
  'A distributed PyTorch training job: one Master and any number of Workers that join a rendezvous at MASTER_ADDR:MASTER_PORT.',
  {
    spec: field(
      named(
        `${KF}.PyTorchJobSpec`,
        struct(
          'Desired state of a PyTorchJob.',
          {
            runPolicy: field(RunPolicy, 'Policies of the job: cleanup, deadline, backoff, gang scheduling, suspension.'),
            elasticPolicy: field(ElasticPolicy, 'Elastic training settings.'),
            nprocPerNode: str(
              'Processes per node (torchrun --nproc-per-node): a number, or auto, cpu or gpu. Defaults to auto. WORLD_SIZE is replicas × this number (1 when not a number).',
            ),
            pytorchReplicaSpecs: replicaSpecs('PyTorch', PYTORCH_REPLICA_TYPES),
          },
          ['pytorchReplicaSpecs'],
        ),
      ),
      'Desired state of the job.',
    ),
    status: field(JobStatus, 'Observed state of the job. Read-only.'),
  },
);

export const TFJobSchema = kindSchema(
  { group: 'kubeflow.org', version: 'v1', kind: 'TFJob' },
  'A distributed TensorFlow training job: Chief, Master, PS, Worker and Evaluator replicas, each told the whole cluster in TF_CONFIG.',
  {
    spec: field(
      named(
        `${KF}.TFJobSpec`,
        struct(
          'Desired state of a TFJob.',
          {
            runPolicy: field(RunPolicy, 'Policies of the job: cleanup, deadline, backoff, gang scheduling, suspension.'),
            successPolicy: enumStr(
              '"" (the default): the job succeeds when the Chief or Master succeeds, or worker 0 when there is neither. AllWorkers: when every worker succeeded.',
              TF_SUCCESS_POLICIES,
            ),
            tfReplicaSpecs: replicaSpecs('TensorFlow', TF_REPLICA_TYPES),
            enableDynamicWorker: bool('Workers may come and go: TF_CONFIG lists only the worker itself, and worker failures do not fail the job.'),
          },
          ['tfReplicaSpecs'],
        ),
      ),
      'Desired state of the job.',
    ),
    status: field(JobStatus, 'Observed state of the job. Read-only.'),
  },
);
