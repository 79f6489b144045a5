import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { controllerRevisionPrinter, replicationControllerPrinter, statefulSetPrinter } from './statefulset.js';
import { cells, columnNames, object } from '../../../test/support/api/printer-fixtures.js';

const template = {
  spec: {
    containers: [
      { name: 'web', image: 'busybox:1' },
      { name: 'log', image: 'busybox:2' },
    ],
  },
};

describe('statefulset, controllerrevision and replicationcontroller printers', () => {
  it('StatefulSet: READY is ready/desired; the wide columns name the containers', () => {
    assert.deepEqual(columnNames(statefulSetPrinter), { normal: ['Name', 'Ready', 'Age'], wide: ['Containers', 'Images'] });
    const sts = object('apps/v1', 'StatefulSet', { name: 'db' }, { spec: { replicas: 3, template }, status: { replicas: 2, readyReplicas: 1 } });
    assert.deepEqual(cells(statefulSetPrinter, sts), { Name: 'db', Ready: '1/3', Age: '10m', Containers: 'web,log', Images: 'busybox:1,busybox:2' });
  });

  it('ControllerRevision: the controller as kind.group/name, or <none>', () => {
    assert.deepEqual(columnNames(controllerRevisionPrinter), { normal: ['Name', 'Controller', 'Revision', 'Age'], wide: [] });
    const owned = object(
      'apps/v1',
      'ControllerRevision',
      {
        name: 'fluentd-6d9b8',
        ownerReferences: [{ apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'fluentd', uid: 'u', controller: true }],
      },
      { data: {}, revision: 2 },
    );
    assert.deepEqual(cells(controllerRevisionPrinter, owned), { Name: 'fluentd-6d9b8', Controller: 'daemonset.apps/fluentd', Revision: 2, Age: '10m' });
    const orphan = object('apps/v1', 'ControllerRevision', { name: 'loose' }, { data: {}, revision: 1 });
    assert.equal(cells(controllerRevisionPrinter, orphan)['Controller'], '<none>');
  });

  it('ReplicationController: desired, current, ready and the selector map', () => {
    assert.deepEqual(columnNames(replicationControllerPrinter), {
      normal: ['Name', 'Desired', 'Current', 'Ready', 'Age'],
      wide: ['Containers', 'Images', 'Selector'],
    });
    const rc = object(
      'v1',
      'ReplicationController',
      { name: 'old' },
      { spec: { replicas: 2, selector: { tier: 'a', app: 'x' }, template }, status: { replicas: 2, readyReplicas: 1 } },
    );
    assert.deepEqual(cells(replicationControllerPrinter, rc), {
      Name: 'old',
      Desired: 2,
      Current: 2,
      Ready: 1,
      Age: '10m',
      Containers: 'web,log',
      Images: 'busybox:1,busybox:2',
      Selector: 'app=x,tier=a',
    });
  });
});
