// The leader gate: of two processes one runs the component; when the leader's API stops
// answering (its renewals hang), it stops the component at its renew deadline, before the Lease
// can expire for the standby, which then starts it: never two at once.
import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import { createServer, request } from 'node:https';
import { testSecurity } from '../../test/support/auth/security.js';
import { after, before, describe, it } from 'node:test';
import { ApiClient } from '../client/index.js';
import { TestServer } from '../../test/support/apiserver/in-process-server.js';
import { startLeaderGate, type LeaderTiming } from './leader-gate.js';
import { waitFor } from '../../test/support/wait-for.js';

const TIMING: LeaderTiming = { leaseDurationMs: 1000, renewDeadlineMs: 600, retryPeriodMs: 100 };

/** Forwards to `target` until hung; then takes requests and never answers. */
async function hangableProxy(target: string): Promise<{ url: string; hang(): void; server: Server }> {
  let hung = false;
  const base = new URL(target);
  const { security, admin } = await testSecurity();
  // It ends TLS with the cluster's serving certificate and goes on as the admin.
  const server = createServer({ cert: security.tls.cert, key: security.tls.key }, (req, res) => {
    if (hung) return;
    const upstream = request(
      { host: base.hostname, port: base.port, path: req.url, method: req.method, headers: req.headers, ca: admin.ca, cert: admin.cert, key: admin.key },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { url: `https://127.0.0.1:${port}`, hang: () => (hung = true), server };
}

describe('leader gate', () => {
  let server: TestServer;
  before(async () => {
    server = await TestServer.start();
  });
  after(() => server.close());

  it("stops the leader's component when it cannot renew, before the standby starts its own", async () => {
    const proxy = await hangableProxy(server.url);
    const timeline: string[] = [];
    let running = 0;
    let overlap = false;
    const component = (who: string) => async () => {
      running++;
      if (running > 1) overlap = true;
      timeline.push(`${who} start`);
      return { stop: async () => void (running--, timeline.push(`${who} stop`)) };
    };
    const leaderApi = new ApiClient({ server: proxy.url, namespace: 'default', tls: server.adminTls }, { timeoutMs: 30_000 });
    const standbyApi = server.client();
    const leader = startLeaderGate({ api: leaderApi, name: 'gate-test', identity: 'leader', timing: TIMING, start: component('leader') });
    await waitFor('the first gate to lead', () => leader.isLeader(), 5000);
    const standby = startLeaderGate({ api: standbyApi, name: 'gate-test', identity: 'standby', timing: TIMING, start: component('standby') });
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.deepEqual(timeline, ['leader start']);
    proxy.hang();
    await waitFor('the standby to take over', () => timeline.includes('standby start'), 5000);
    assert.deepEqual(timeline, ['leader start', 'leader stop', 'standby start']);
    assert.equal(overlap, false);
    await standby.stop();
    leaderApi.close();
    proxy.server.closeAllConnections();
    proxy.server.close();
    await leader.stop();
    standbyApi.close();
  });

  it("hands over at once on a clean stop, after the leader's component has stopped", async () => {
    const timeline: string[] = [];
    const component = (who: string) => async () => {
      timeline.push(`${who} start`);
      return {
        stop: async () => {
          await new Promise((resolve) => setTimeout(resolve, 200));
          timeline.push(`${who} stop`);
        },
      };
    };
    const first = startLeaderGate({ api: server.client(), name: 'gate-clean', identity: 'first', timing: TIMING, start: component('first') });
    await waitFor('the first gate to lead', () => first.isLeader(), 5000);
    const second = startLeaderGate({ api: server.client(), name: 'gate-clean', identity: 'second', timing: TIMING, start: component('second') });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const stoppedAt = Date.now();
    await first.stop();
    await waitFor('the second gate to take over', () => timeline.includes('second start'), 5000);
    assert.ok(Date.now() - stoppedAt < TIMING.leaseDurationMs, 'taken over before the lease could have expired');
    assert.deepEqual(timeline, ['first start', 'first stop', 'second start']);
    await second.stop();
  });
});
