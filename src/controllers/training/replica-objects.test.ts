import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { finishedCondition, setCondition } from './conditions.js';
import { podsToClean } from './job-ending.js';
import { desiredPodGroupSpec } from './pod-group.js';
import { hostPortOf } from './ports.js';
import { pytorchController } from './pytorch.js';
import { newReplicaPod, newReplicaService } from './replica-objects.js';
import { RestartLedger } from './restart-ledger.js';
import { tensorflowController, tfConfig } from './tensorflow.js';
import { pytorchJob, replica, replicaPod, tfJob } from '../../../test/support/controllers/training-builders.js';
import type { TrainingJobStatus } from './types.js';
import type { Container } from '../../api/core/index.js';

const envOf = (container: Container | undefined) => Object.fromEntries((container?.env ?? []).map((e) => [e.name, e.value]));

describe('training replica pods, services and PodGroups', () => {
  it('PyTorch: names, labels, owner, pod group, restart policy and env on every container', () => {
    const job = pytorchJob({ nprocPerNode: '2', runPolicy: { schedulingPolicy: { priorityClass: 'high' } } });
    job.spec.pytorchReplicaSpecs = {
      Master: replica('pytorch', { restartPolicy: 'ExitCode' }, { restartPolicy: 'Always' }),
      Worker: {
        ...replica('pytorch', { replicas: 3 }),
        template: {
          spec: {
            containers: [
              { name: 'pytorch', image: 'x' },
              { name: 'sidecar', image: 'y' },
            ],
          },
        },
      },
    };
    const master = newReplicaPod(pytorchController, job, 'Master', 0, job.spec.pytorchReplicaSpecs!['Master']!);
    assert.equal(master.pod.metadata.name, 'mnist-master-0');
    assert.equal(master.pod.spec.restartPolicy, 'Never', 'ExitCode runs as Never');
    assert.equal(master.overwrotePolicy, 'Always');
    assert.deepEqual(master.pod.metadata.labels, {
      'training.kubeflow.org/operator-name': 'pytorchjob-controller',
      'training.kubeflow.org/job-name': 'mnist',
      'training.kubeflow.org/replica-type': 'master',
      'training.kubeflow.org/replica-index': '0',
      'training.kubeflow.org/job-role': 'master',
      'scheduling.x-k8s.io/pod-group': 'mnist',
    });
    assert.equal(master.pod.metadata.ownerReferences?.[0]?.kind, 'PyTorchJob');
    assert.equal(master.pod.metadata.ownerReferences?.[0]?.controller, true);
    assert.equal(master.pod.spec['priorityClassName'], 'high');
    const worker = newReplicaPod(pytorchController, job, 'Worker', 2, job.spec.pytorchReplicaSpecs!['Worker']!);
    for (const container of worker.pod.spec.containers ?? []) {
      assert.deepEqual(envOf(container), {
        PYTHONUNBUFFERED: '1',
        MASTER_ADDR: 'mnist-master-0',
        MASTER_PORT: '23456',
        WORLD_SIZE: '8',
        RANK: '3',
        PET_MASTER_ADDR: 'mnist-master-0',
        PET_MASTER_PORT: '23456',
        PET_NNODES: '4',
        PET_NODE_RANK: '3',
        PET_NPROC_PER_NODE: '2',
      });
    }
    assert.equal(worker.pod.metadata.labels?.['training.kubeflow.org/job-role'], undefined);
    const auto = pytorchJob({ nprocPerNode: 'auto' });
    const env = envOf(newReplicaPod(pytorchController, auto, 'Worker', 0, auto.spec.pytorchReplicaSpecs!['Worker']!).pod.spec.containers?.[0]);
    assert.equal(env['WORLD_SIZE'], '4', 'auto counts as 1 process per node');
  });

  it('headless Service per replica, selecting that replica, on the framework port', () => {
    const service = newReplicaService(pytorchController, pytorchJob(), 'Worker', 1);
    assert.equal(service.metadata.name, 'mnist-worker-1');
    assert.deepEqual(service['spec'], {
      clusterIP: 'None',
      selector: {
        'training.kubeflow.org/operator-name': 'pytorchjob-controller',
        'training.kubeflow.org/job-name': 'mnist',
        'training.kubeflow.org/replica-type': 'worker',
        'training.kubeflow.org/replica-index': '1',
      },
      ports: [{ name: 'pytorchjob-port', port: 23456, targetPort: 23456, protocol: 'TCP' }],
    });
  });

  it('TF_CONFIG: the whole cluster by Service name, the sparse form with enableDynamicWorker, none for one replica', () => {
    assert.deepEqual(JSON.parse(tfConfig(tfJob(), 'Worker', 1)), {
      cluster: { chief: ['dist-chief-0.ml.svc:2222'], ps: ['dist-ps-0.ml.svc:2222'], worker: ['dist-worker-0.ml.svc:2222', 'dist-worker-1.ml.svc:2222'] },
      task: { type: 'worker', index: 1 },
      environment: 'cloud',
    });
    assert.deepEqual(JSON.parse(tfConfig(tfJob({ enableDynamicWorker: true }), 'Worker', 1)).cluster.worker, { 1: 'dist-worker-1.ml.svc:2222' });
    assert.equal(JSON.parse(tfConfig(tfJob({ enableDynamicWorker: true }), 'PS', 0)).cluster.worker, undefined);
    const local = tfJob({ tfReplicaSpecs: { Worker: replica('tensorflow') } });
    const pod = newReplicaPod(tensorflowController, local, 'Worker', 0, local.spec.tfReplicaSpecs!['Worker']!).pod;
    assert.equal(envOf(pod.spec.containers?.[0])['TF_CONFIG'], undefined);
  });

  it('host-network replicas listen on ports of their own, declared as host ports; jobs get different blocks', () => {
    const proc = { runtimeClassName: 'process' };
    const job = tfJob({
      tfReplicaSpecs: { Chief: replica('tensorflow', {}, proc), PS: replica('tensorflow', {}, proc), Worker: replica('tensorflow', { replicas: 2 }, proc) },
    });
    const ports = [
      hostPortOf(tensorflowController.framework, job, 'Chief', 0),
      hostPortOf(tensorflowController.framework, job, 'PS', 0),
      hostPortOf(tensorflowController.framework, job, 'Worker', 0),
      hostPortOf(tensorflowController.framework, job, 'Worker', 1),
    ];
    assert.equal(new Set(ports).size, 4);
    for (const port of ports) assert.ok(port! >= 10_000 && port! < 32_768, `${port} is unprivileged and below the ephemeral range`);
    const pod = newReplicaPod(tensorflowController, job, 'Worker', 1, job.spec.tfReplicaSpecs!['Worker']!).pod;
    assert.deepEqual(pod.spec.containers?.[0]?.['ports'], [{ name: 'tfjob-port', containerPort: ports[3], hostPort: ports[3], protocol: 'TCP' }]);
    assert.match(envOf(pod.spec.containers?.[0])['TF_CONFIG'] ?? '', new RegExp(`dist-worker-1.ml.svc:${ports[3]}`));
    const other = { ...job, metadata: { ...job.metadata, uid: 'another-uid' } };
    assert.notEqual(hostPortOf(tensorflowController.framework, other, 'Chief', 0), ports[0]);
    // PyTorch: only the master listens.
    const pt = pytorchJob({ pytorchReplicaSpecs: { Master: replica('pytorch', {}, proc), Worker: replica('pytorch', { replicas: 2 }, proc) } });
    assert.equal(hostPortOf(pytorchController.framework, pt, 'Worker', 0), undefined);
    const masterPort = hostPortOf(pytorchController.framework, pt, 'Master', 0);
    const worker = newReplicaPod(pytorchController, pt, 'Worker', 0, pt.spec.pytorchReplicaSpecs!['Worker']!).pod;
    assert.equal(envOf(worker.spec.containers?.[0])['MASTER_PORT'], String(masterPort));
  });

  it('PodGroup: minMember from minAvailable or every replica; minResources only when set', () => {
    assert.deepEqual(desiredPodGroupSpec(pytorchController, pytorchJob()), { minMember: 4 });
    const job = pytorchJob({ runPolicy: { schedulingPolicy: { minAvailable: 2, minResources: { cpu: '4' }, scheduleTimeoutSeconds: 30 } } });
    assert.deepEqual(desiredPodGroupSpec(pytorchController, job), { minMember: 2, minResources: { cpu: '4' }, scheduleTimeoutSeconds: 30 });
  });

  it('cleanPodPolicy: None keeps every pod, Running removes the unfinished, All removes all', () => {
    const pods = [
      replicaPod('Master', 0, { phase: 'Failed' }),
      replicaPod('Worker', 0),
      replicaPod('Worker', 1, { phase: 'Pending' }),
      replicaPod('Worker', 2, { phase: 'Succeeded' }),
    ].map((f) => f.pod);
    const names = (policy: 'None' | 'Running' | 'All') => podsToClean(pytorchJob({ runPolicy: { cleanPodPolicy: policy } }), pods).map((p) => p.metadata.name);
    assert.deepEqual(names('None'), []);
    assert.deepEqual(names('Running'), ['mnist-worker-0', 'mnist-worker-1']);
    assert.equal(names('All').length, 4);
  });

  it('conditions: Running and Restarting replace each other; the end turns both off', () => {
    const status: TrainingJobStatus = {};
    const now = new Date();
    setCondition(status, 'Created', 'PyTorchJobCreated', 'created', now);
    setCondition(status, 'Running', 'PyTorchJobRunning', 'running', now);
    setCondition(status, 'Restarting', 'PyTorchJobRestarting', 'restarting', now);
    assert.deepEqual(
      status.conditions?.map((c) => c.type),
      ['Created', 'Restarting'],
    );
    setCondition(status, 'Running', 'PyTorchJobRunning', 'running', now);
    setCondition(status, 'Succeeded', 'PyTorchJobSucceeded', 'done', now);
    assert.deepEqual(
      status.conditions?.map((c) => [c.type, c.status]),
      [
        ['Created', 'True'],
        ['Running', 'False'],
        ['Succeeded', 'True'],
      ],
    );
    assert.equal(finishedCondition({ ...pytorchJob(), status }), 'Succeeded');
  });

  it('restart ledger: a pod created here counts all its restarts; one found after a controller restart counts from now', () => {
    const ledger = new RestartLedger();
    const mine = replicaPod('Worker', 0, { restarts: 2 }).pod;
    ledger.created(mine.metadata.uid!);
    assert.equal(ledger.newRestarts(mine), 2);
    ledger.commit([mine], []);
    assert.equal(ledger.newRestarts(mine), 0);
    const found = replicaPod('Worker', 1, { restarts: 5 }).pod;
    assert.equal(ledger.newRestarts(found), 0);
    found.status!.containerStatuses![0]!.restartCount = 6;
    assert.equal(ledger.newRestarts(found), 1);
  });
});
