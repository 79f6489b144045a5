import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { eventPrinter } from './event.js';
import { ago, cells, columnNames, object } from '../../../test/support/api/printer-fixtures.js';

describe('event printer', () => {
  it('has the kubectl get events columns', () => {
    assert.deepEqual(columnNames(eventPrinter), {
      normal: ['Last Seen', 'Type', 'Reason', 'Object', 'Message'],
      wide: ['Subobject', 'Source', 'First Seen', 'Count', 'Name'],
    });
  });

  it('prints a core/v1 event', () => {
    const event = object(
      'v1',
      'Event',
      { name: 'web-1.17f3a', namespace: 'default' },
      {
        involvedObject: { kind: 'Pod', name: 'web-1', namespace: 'default', fieldPath: 'spec.containers{app}' },
        reason: 'BackOff',
        message: 'Back-off restarting failed container app in pod web-1\n',
        source: { component: 'kubelet', host: 'node-a' },
        firstTimestamp: ago('20m'),
        lastTimestamp: ago('45s'),
        count: 7,
        type: 'Warning',
      },
    );
    assert.deepEqual(cells(eventPrinter, event), {
      'Last Seen': '45s',
      Type: 'Warning',
      Reason: 'BackOff',
      Object: 'pod/web-1',
      Subobject: 'spec.containers{app}',
      Source: 'kubelet, node-a',
      Message: 'Back-off restarting failed container app in pod web-1',
      'First Seen': '20m',
      Count: 7,
      Name: 'web-1.17f3a',
    });
  });

  it('falls back to eventTime, reporting component and a count of 1', () => {
    const event = object(
      'v1',
      'Event',
      { name: 'e1' },
      {
        involvedObject: { kind: 'Deployment', name: 'web' },
        reason: 'ScalingReplicaSet',
        message: 'Scaled up replica set web-7d4b9 to 3',
        eventTime: '2025-03-01T11:57:00.123456Z',
        reportingComponent: 'deployment-controller',
        type: 'Normal',
      },
    );
    const r = cells(eventPrinter, event);
    assert.deepEqual([r['Last Seen'], r['First Seen'], r['Source'], r['Count'], r['Object']], ['2m59s', '2m59s', 'deployment-controller', 1, 'deployment/web']);
  });

  it('uses the series for recurring events', () => {
    const event = object(
      'v1',
      'Event',
      { name: 'e2' },
      {
        involvedObject: { kind: 'Node', name: 'node-a' },
        eventTime: ago('1h'),
        series: { count: 12, lastObservedTime: ago('30s') },
        reportingComponent: 'drover-agent',
        reportingInstance: 'node-a',
      },
    );
    const r = cells(eventPrinter, event);
    assert.deepEqual([r['Last Seen'], r['First Seen'], r['Count'], r['Source']], ['30s', '60m', 12, 'drover-agent, node-a']);
  });

  it('prints just the kind when the object has no name and <unknown> without times', () => {
    const r = cells(eventPrinter, object('v1', 'Event', { name: 'e3' }, { involvedObject: { kind: 'Cluster' } }));
    assert.deepEqual([r['Object'], r['Last Seen'], r['First Seen']], ['cluster', '<unknown>', '<unknown>']);
  });

  it('reads events.k8s.io/v1 events too', () => {
    const event = object(
      'events.k8s.io/v1',
      'Event',
      { name: 'e4' },
      {
        regarding: { kind: 'Pod', name: 'web-2' },
        note: 'Successfully assigned default/web-2 to node-b',
        reason: 'Scheduled',
        type: 'Normal',
        eventTime: ago('5m'),
        reportingController: 'drover-scheduler',
        deprecatedCount: 2,
        deprecatedLastTimestamp: ago('4m'),
      },
    );
    const r = cells(eventPrinter, event);
    assert.deepEqual(
      [r['Object'], r['Message'], r['Source'], r['Count'], r['Last Seen'], r['First Seen']],
      ['pod/web-2', 'Successfully assigned default/web-2 to node-b', 'drover-scheduler', 2, '4m', '5m'],
    );
  });
});
