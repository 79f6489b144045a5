// The leader gate: of two processes one runs the component; when the leader's API stops
// answering (its renewals hang), it stops the component at its renew deadline, before the Lease
// can expire for the standby, which then starts it: never two at once. The tests assert the
// order of starts and stops and who leads, never how long anything took: the Lease timings leave
// seconds between the leader's deadline and the standby's takeover, and every wait is generous
// (a loaded machine slows the test, it does not fail it). Each test cleans up in `finally` and has
// a timeout of its own, so a failure ends the test instead of leaving gates and sockets open.
import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import { createServer, request } from 'node:https';
import { testSecurity } from '../../test/support/auth/security.js';
import { describe, it } from 'node:test';
import { ApiClient } from '../client/index.js';
import { useTestServer } from '../../test/support/apiserver/use-test-server.js';
import { startLeaderGate, type LeaderGate, type LeaderTiming } from './leader-gate.js';
import { waitFor } from '../../test/support/wait-for.js';

/** A leader that cannot renew gives up 3 s before the standby may take the Lease. */
const TIMING: LeaderTiming = { leaseDurationMs: 8000, renewDeadlineMs: 5000, retryPeriodMs: 250 };
/** A Lease that outlives every wait here: a takeover can only come from the leader's release. */
const NEVER_EXPIRES: LeaderTiming = { leaseDurationMs: 300_000, renewDeadlineMs: 200_000, retryPeriodMs: 250 };
const TEST_TIMEOUT_MS = 120_000;
const WAIT_MS = 60_000;

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
  const bed = useTestServer();

  /** A component that records its starts and stops, and whether two ever ran at once. */
  function recorder(stopDelayMs = 0) {
    const timeline: string[] = [];
    let running = 0;
    let overlapped = false;
    const component = (who: string) => async () => {
      running++;
      if (running > 1) overlapped = true;
      timeline.push(`${who} start`);
      return {
        stop: async () => {
          if (stopDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, stopDelayMs));
          running--;
          timeline.push(`${who} stop`);
        },
      };
    };
    return { timeline, component, overlapped: () => overlapped };
  }

  it("stops the leader's component when it cannot renew, before the standby starts its own", { timeout: TEST_TIMEOUT_MS }, async () => {
    const proxy = await hangableProxy(bed.server.url);
    const leaderApi = new ApiClient({ server: proxy.url, namespace: 'default', tls: bed.server.adminTls }, { timeoutMs: 30_000 });
    const standbyApi = bed.server.client();
    const { timeline, component, overlapped } = recorder();
    const leader = startLeaderGate({ api: leaderApi, name: 'gate-test', identity: 'leader', timing: TIMING, start: component('leader') });
    let standby: LeaderGate | undefined;
    try {
      await waitFor('the first gate to lead', () => leader.isLeader(), WAIT_MS);
      standby = startLeaderGate({ api: standbyApi, name: 'gate-test', identity: 'standby', timing: TIMING, start: component('standby') });
      // The standby tries the Lease every retry period meanwhile; a renewing leader keeps it.
      await new Promise((resolve) => setTimeout(resolve, 4 * TIMING.retryPeriodMs));
      assert.equal(standby.isLeader(), false);
      assert.deepEqual(timeline, ['leader start']);
      proxy.hang();
      await waitFor('the standby to take over', () => standby!.isLeader() && timeline.includes('standby start'), WAIT_MS);
      assert.deepEqual(timeline, ['leader start', 'leader stop', 'standby start']);
      assert.equal(overlapped(), false, 'the two components never ran at once');
    } finally {
      await standby?.stop();
      leaderApi.close();
      proxy.server.closeAllConnections();
      proxy.server.close();
      await leader.stop();
      standbyApi.close();
    }
  });

  it("hands over on a clean stop, after the leader's component has stopped, without waiting for the Lease", { timeout: TEST_TIMEOUT_MS }, async () => {
    // The component takes a while to stop: the second must not start before it has.
    const { timeline, component, overlapped } = recorder(200);
    const first = startLeaderGate({ api: bed.server.client(), name: 'gate-clean', identity: 'first', timing: NEVER_EXPIRES, start: component('first') });
    let second: LeaderGate | undefined;
    try {
      await waitFor('the first gate to lead', () => first.isLeader(), WAIT_MS);
      second = startLeaderGate({ api: bed.server.client(), name: 'gate-clean', identity: 'second', timing: NEVER_EXPIRES, start: component('second') });
      await first.stop();
      // The Lease would hold for minutes: the second leads this soon only because the first released it.
      await waitFor('the second gate to take over', () => second!.isLeader() && timeline.includes('second start'), WAIT_MS);
      assert.deepEqual(timeline, ['first start', 'first stop', 'second start']);
      assert.equal(overlapped(), false, 'the two components never ran at once');
    } finally {
      await second?.stop();
      await first.stop();
    }
  });
});
