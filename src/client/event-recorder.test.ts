import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../api/meta.js';
import { EventRecorder } from './event-recorder.js';
import { silentLogger } from './logger.js';
import { resources } from './resources.js';
import { testPod } from '../../test/support/apiserver/in-process-server.js';
import { useTestServer } from '../../test/support/apiserver/use-test-server.js';

let pod: KubeObject;
const bed = useTestServer({}, async ({ api }) => {
  pod = await api.resource(resources.pods, 'default').create(testPod('web-1') as KubeObject);
});

async function eventsAbout(name: string): Promise<KubeObject[]> {
  const list = await bed.api.resource(resources.events, 'default').list({ fieldSelector: `involvedObject.name=${name}` });
  return list.items;
}

describe('EventRecorder', () => {
  it('counts identical events on one Event', async () => {
    const recorder = new EventRecorder(bed.api, 'drover-test', { logger: silentLogger });
    await recorder.record(pod, 'Warning', 'BackOff', 'Back-off restarting failed container');
    // Fired without waiting: the recorder still counts them in order.
    void recorder.record(pod, 'Warning', 'BackOff', 'Back-off restarting failed container');
    void recorder.record(pod, 'Warning', 'BackOff', 'Back-off restarting failed container');
    await recorder.flush();
    const events = await eventsAbout('web-1');
    assert.equal(events.length, 1);
    const event = events[0]!;
    assert.equal(event['count'], 3);
    assert.match(event.metadata.name!, /^web-1\.[0-9a-f]+$/);
    assert.equal(event['type'], 'Warning');
    assert.deepEqual(event['source'], { component: 'drover-test', host: (event['source'] as { host: string }).host });
    assert.equal((event['involvedObject'] as { uid: string }).uid, pod.metadata.uid);
    assert.ok(String(event['lastTimestamp']) >= String(event['firstTimestamp']));
  });

  it('keeps different messages apart, then combines similar ones past ten', async () => {
    const recorder = new EventRecorder(bed.api, 'drover-test', { logger: silentLogger });
    const rs = { apiVersion: 'apps/v1', kind: 'ReplicaSet', namespace: 'default', name: 'web-rs', uid: 'u-1' };
    for (let i = 0; i < 12; i++) void recorder.record(rs, 'Normal', 'SuccessfulCreate', `Created pod: web-rs-${i}`);
    await recorder.flush();
    const events = await eventsAbout('web-rs');
    assert.equal(events.length, 10, '9 distinct + 1 combined');
    const combined = events.find((e) => String(e['message']).startsWith('(combined from similar events): '));
    assert.ok(combined);
    assert.equal(combined['count'], 3);
  });

  it('never throws into the caller', async () => {
    const recorder = new EventRecorder(bed.api, 'drover-test', { logger: silentLogger });
    await recorder.record({ kind: 'Pod', namespace: 'no-such-namespace', name: 'x' }, 'Normal', 'Test', 'ignored');
    const spammy = new EventRecorder(bed.api, 'drover-test', { logger: silentLogger, spamBurst: 2 });
    for (let i = 0; i < 5; i++) await spammy.record({ kind: 'Pod', namespace: 'default', name: 'spam', uid: 's' }, 'Normal', 'Ping', 'ping');
    assert.equal((await eventsAbout('spam'))[0]?.['count'], 2, 'the spam filter held back the rest');
  });
});
