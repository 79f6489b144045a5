// What the README says its commands show, and how a test runs the ones a person has to stop.
// Keyed by the command exactly as the README types it: a README change to a command that has
// an entry here, or a new comment saying what a command shows, needs this table to follow.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { waitFor } from './wait-for.js';

export interface StepContext {
  /** The clone's root, where the commands are typed. */
  root: string;
  /** This machine's node: the hostname, as `drover up` names it. */
  nodeName: string;
  /** The README's text (the pod serves a copy of it). */
  readme: string;
  /** kubectl against the README's cluster, for checks beyond a command's own output. */
  kubectl(...args: string[]): Promise<string>;
}

export interface Step {
  /** Checks what the README says the command shows; throws when it does not. */
  shows?(output: string, ctx: StepContext): void | Promise<void>;
  /** Runs the command again until `shows` passes, as a person looks again (reads only). */
  retryMs?: number;
  /** Typed into a command that runs until exit. */
  input?: string;
  /** A command that runs until Ctrl-C: started in the background, then sent SIGINT. */
  untilCtrlC?: {
    /** What it shows once it works. */
    ready: RegExp;
    /** Done while it runs, before the Ctrl-C. */
    whileRunning?(ctx: StepContext): Promise<void>;
    /** Keeps running beside the later commands (the cluster); Ctrl-C after the last one. */
    keepRunning?: boolean;
  };
  /** Runs this instead of the README's command, for the reason given. */
  instead?: { command: string; why: string };
  timeoutMs?: number;
}

/** `npm test` of the clone narrowed to one folder's tests: the whole suite is what runs this. */
const NARROWED_NPM_TEST = {
  command: 'npm install && npm test -- dist/src/cli/',
  why: 'the whole suite includes this test; the same install, pretest, build and runner, on the CLI tests',
};

function suitePassed(output: string): void {
  assert.match(output, /^# pass [1-9]/m);
  assert.match(output, /^# fail 0$/m);
}

/** A benchmark loads the machine for minutes by design: the test checks that its script and its built entry (from `npm run build` before it) exist. */
function benchmarkExists(script: string, entry: string): Step {
  return {
    instead: {
      command: `grep -q '"${script}": "npm run build && node ${entry}"' package.json && test -f ${entry}`,
      why: 'a benchmark loads the machine for minutes',
    },
  };
}

const rolledOut = (output: string) => assert.match(output, /successfully rolled out/);

export const STEPS: Record<string, Step> = {
  'npm install && bash scripts/ensure-docker.sh && npx drover up --data-dir .drover': {
    // The last line it prints: the dashboard's sign-in address.
    untilCtrlC: { ready: /^dashboard: .*\n/m, keepRunning: true },
    timeoutMs: 120_000,
    shows(output, ctx) {
      assert.ok(output.includes(`node ${ctx.nodeName} ready`), 'the node is named after this machine');
      assert.ok(output.includes(`kubeconfig: ${ctx.root}/.drover/kubeconfig`), 'the kubeconfig is where the README exports it from');
      const lines = output.split('\n');
      // Run in a pipe, it prints the address and the token's file (the token itself only on a terminal).
      const dashboard = lines.findIndex(
        (line) => line === `dashboard: https://127.0.0.1:6443/ui/ (sign in with the admin token in ${ctx.root}/.drover/dashboard-token; keep it private)`,
      );
      assert.ok(dashboard > lines.findIndex((line) => line.startsWith('try: export KUBECONFIG=')), "it ends by printing the dashboard's address");
    },
  },
  'kubectl get hpa burn': {
    // The autoscaler's first pass (15 s) reads the burners at their 100m limit: twice the target.
    retryMs: 90_000,
    async shows(output, ctx) {
      assert.match(output, /^burn\s+Deployment\/burn\s+cpu: \d+%\/50%\s+1\s+3\s+[23]\s/m);
      await waitFor('3 burners', async () => (await ctx.kubectl('get', 'deploy', 'burn', '-o', 'jsonpath={.spec.replicas}')) === '3', 60_000);
    },
  },
  'npx drover up --data-dir .drover --print-prometheus-config > prometheus.yml': {
    async shows(_output, ctx) {
      const config = readFileSync(join(ctx.root, 'prometheus.yml'), 'utf8');
      assert.match(config, /job_name: drover-apiserver/);
      assert.match(config, /job_name: drover-agents/);
    },
  },
  'prometheus --config.file=prometheus.yml --storage.tsdb.path=.prometheus --web.listen-address=127.0.0.1:9091': {
    untilCtrlC: {
      ready: /Server is ready to receive web requests/,
      // Discovery and the first scrapes come at the configuration's 15 s interval.
      async whileRunning() {
        await waitFor(
          'both jobs discovered and every target up',
          async () => {
            const res = await fetch('http://127.0.0.1:9091/api/v1/targets?state=active').catch(() => undefined);
            const targets =
              ((await res?.json()) as { data?: { activeTargets?: Array<{ labels: Record<string, string>; health: string }> } } | undefined)?.data
                ?.activeTargets ?? [];
            const jobs = new Set(targets.map((t) => t.labels['job']));
            return jobs.has('drover-apiserver') && jobs.has('drover-agents') && targets.every((t) => t.health === 'up');
          },
          90_000,
        );
      },
    },
    timeoutMs: 120_000,
  },
  'npm install && npm test': { instead: NARROWED_NPM_TEST, shows: suitePassed, timeoutMs: 120_000 },
  'npm test': { instead: NARROWED_NPM_TEST, shows: suitePassed, timeoutMs: 120_000 },

  'kubectl get nodes -o wide': {
    retryMs: 30_000,
    shows: (output, ctx) => assert.match(output, new RegExp(`^${ctx.nodeName}\\s+Ready\\s`, 'm')),
  },
  'kubectl get pods -o wide': {
    retryMs: 60_000,
    shows: (output, ctx) => assert.match(output, new RegExp(`^hello\\s+1/1\\s+Running\\s.*\\s${ctx.nodeName}\\s`, 'm')),
  },
  'kubectl logs -f hello': {
    // Two lines of `date`, two seconds apart: the output as it comes, not only what was there.
    untilCtrlC: { ready: /(\d\d:\d\d:\d\d[^\n]*\n[^]*){2}/ },
  },
  'kubectl exec -it hello -- sh': {
    input: 'echo inside $(cat /VERSION)\nexit\n',
    shows: (output) => assert.match(output, /^inside 1$/m),
  },
  'kubectl exec hello -- httpd -p 80 -h /tmp': {
    async shows(_output, ctx) {
      assert.equal(await ctx.kubectl('exec', 'hello', '--', 'wget', '-qO-', 'http://127.0.0.1/README.md'), ctx.readme);
    },
  },
  'kubectl port-forward pod/hello 8080:80': {
    untilCtrlC: {
      ready: /Forwarding from 127\.0\.0\.1:8080 -> 80/,
      async whileRunning(ctx) {
        const response = await fetch('http://127.0.0.1:8080/README.md', { signal: AbortSignal.timeout(10_000) });
        assert.equal(await response.text(), ctx.readme);
      },
    },
  },
  'npx drover signal pod/hello SIGUSR1': {
    shows: (output) => assert.equal(output.trim(), 'pod/hello signalled SIGUSR1'),
  },

  'kubectl rollout status deploy/web': {
    timeoutMs: 120_000,
    async shows(output, ctx) {
      rolledOut(output);
      const status = await ctx.kubectl(
        'get',
        'deploy/web',
        '-o',
        'jsonpath={.status.availableReplicas} {.spec.strategy.rollingUpdate.maxSurge} {.spec.strategy.rollingUpdate.maxUnavailable}',
      );
      assert.equal(status, '3 25% 25%', 'available replicas, maxSurge, maxUnavailable');
    },
  },
  'kubectl rollout status deploy/backend': {
    timeoutMs: 120_000,
    async shows(output, ctx) {
      rolledOut(output);
      assert.equal(await ctx.kubectl('get', 'deploy/backend', '-o', 'jsonpath={.status.readyReplicas}'), '2');
    },
  },
  'node -e "fetch(\'http://127.0.0.1:30080/cgi-bin/index\').then((r) => r.text()).then(console.log)"': {
    // The rules and the DNS follow the Services within a second: a person may look again.
    retryMs: 15_000,
    async shows(output, ctx) {
      const backends = (await ctx.kubectl('get', 'pods', '-l', 'app=backend', '-o', 'jsonpath={.items[*].metadata.name}')).split(' ');
      const answer = /^frontend (\S+) got: backend (\S+)$/m.exec(output);
      assert.ok(answer, `the frontend's answer, with the backend's, in:\n${output}`);
      assert.ok(backends.includes(answer[2]!), `${answer[2]} is one of the backend pods ${backends.join(', ')}`);
    },
  },
  'kubectl exec deploy/frontend -- nslookup backend.default.svc.cluster.local': {
    async shows(output, ctx) {
      const ip = await ctx.kubectl('get', 'service', 'backend', '-o', 'jsonpath={.spec.clusterIP}');
      assert.match(output, new RegExp(`Address: ${ip.replace(/\./g, '\\.')}$`, 'm'));
    },
  },
  'kubectl rollout history deploy/web': {
    shows(output) {
      assert.match(output, /^1\s/m);
      assert.match(output, /^2\s/m);
    },
  },
  'kubectl rollout undo deploy/web': {
    async shows(output, ctx) {
      assert.match(output, /rolled back/);
      assert.equal(await ctx.kubectl('get', 'deploy/web', '-o', 'jsonpath={.spec.template.spec.containers[0].image}'), 'drover-test/busybox:1');
    },
  },
  'kubectl get tx': {
    retryMs: 30_000,
    shows(output) {
      const web = output.split('\n').filter((line) => /\bweb\b/.test(line));
      for (const operation of ['launch', 'update', 'scale']) {
        assert.ok(
          web.some((line) => new RegExp(`\\b${operation}\\b`, 'i').test(line)),
          `a ${operation} of web in:\n${output}`,
        );
      }
    },
  },
  'kubectl delete deploy web': {
    // Typed once: a second delete finds nothing (retryMs is for reads). What it does is waited for.
    async shows(_output, ctx) {
      await waitFor('the ReplicaSets gone', async () => (await ctx.kubectl('get', 'rs', '-l', 'app=web', '-o', 'name')) === '', 30_000);
      // Pods go through their grace period (`sleep` ignores SIGTERM): deleted, if not yet gone.
      const pods = await ctx.kubectl(
        'get',
        'pods',
        '-l',
        'app=web',
        '-o',
        'jsonpath={range .items[*]}{.metadata.name}={.metadata.deletionTimestamp}{"\\n"}{end}',
      );
      assert.deepEqual(
        pods.split('\n').filter((line) => line && line.endsWith('=')),
        [],
        'pods not being deleted',
      );
    },
  },

  'kubectl apply -f examples/pytorchjob-process.yaml': {
    shows: (output) => assert.match(output, /pytorchjob\.kubeflow\.org\/linreg created/),
  },
  'kubectl wait --for=condition=Succeeded pytorchjob/linreg --timeout=120s': { timeoutMs: 150_000 },
  'kubectl logs linreg-worker-2': {
    async shows(output, ctx) {
      const loss = /^rank 3 final loss (\S+)/m.exec(output)?.[1];
      assert.ok(loss !== undefined, `rank 3's final loss in:\n${output}`);
      for (const pod of ['linreg-master-0', 'linreg-worker-0', 'linreg-worker-1']) {
        assert.match(await ctx.kubectl('logs', pod), new RegExp(`final loss ${loss.replace('.', '\\.')}`), `${pod} ends with the same loss`);
      }
    },
  },
  'kubectl get pytorchjobs': {
    retryMs: 30_000,
    async shows(output, ctx) {
      assert.match(output, /^linreg\s+Succeeded\s/m);
      assert.equal(await ctx.kubectl('get', 'podgroups', '-o', 'name'), '', "a finished job's PodGroup is deleted");
    },
  },
  'npx drover agent --node-name gpu-node --data-dir .drover/gpu-node --extended-resource nvidia.com/gpu=4': {
    untilCtrlC: { ready: /node gpu-node ready/, keepRunning: true },
    timeoutMs: 60_000,
  },
  'kubectl apply -f examples/pytorchjobs-gang.yaml': {
    shows(output) {
      assert.match(output, /pytorchjob\.kubeflow\.org\/first created/);
      assert.match(output, /pytorchjob\.kubeflow\.org\/second created/);
    },
  },
  'kubectl get podgroups': {
    retryMs: 30_000,
    async shows(output, ctx) {
      assert.match(output, /^first\s+(Scheduled|Running)\s+3\s/m);
      assert.match(output, /^second\s+Pending\s+3\s/m);
      // Waiting whole: none of the second gang's pods is bound.
      const bound = await ctx.kubectl('get', 'pods', '-l', 'scheduling.x-k8s.io/pod-group=second', '-o', 'jsonpath={.items[*].spec.nodeName}');
      assert.equal(bound.trim(), '', 'no pod of the waiting gang holds a place');
    },
  },
  'kubectl describe podgroup second': {
    retryMs: 15_000,
    shows: (output) => assert.match(output, /needs nvidia\.com\/gpu 3/),
  },
  'kubectl wait --for=condition=Succeeded pytorchjob/first pytorchjob/second --timeout=180s': { timeoutMs: 200_000 },

  'kubectl logs first-worker-1': {
    async shows(output, ctx) {
      assert.match(output, /^rank 2 of 3 on GPU \d$/m);
      const gpus = await Promise.all(
        ['first-master-0', 'first-worker-0', 'first-worker-1'].map(async (pod) => /on GPU (\d)/.exec(await ctx.kubectl('logs', pod))?.[1]),
      );
      assert.equal(new Set(gpus).size, 3, `each replica on its own GPU: ${gpus.join(', ')}`);
    },
  },

  'npm run build': {
    shows: (_output, ctx) => assert.ok(existsSync(join(ctx.root, 'dist/src/cli/main.js')), 'the CLI is built into dist/'),
  },
  'npm run bench:api': benchmarkExists('bench:api', 'dist/bench/api.js'),
  'npm run bench:scheduler': benchmarkExists('bench:scheduler', 'dist/bench/scheduler.js'),
  'npm run bench:scheduler-core': benchmarkExists('bench:scheduler-core', 'dist/bench/scheduler-core.js'),
  'npm run bench:startup': benchmarkExists('bench:startup', 'dist/bench/startup.js'),
  'npm run bench:workloads': benchmarkExists('bench:workloads', 'dist/bench/workloads.js'),
  'npm run bench:hardening': benchmarkExists('bench:hardening', 'dist/bench/hardening.js'),
  'npm run bench:gang': benchmarkExists('bench:gang', 'dist/bench/gang.js'),
  'npm run bench:scale': benchmarkExists('bench:scale', 'dist/bench/scale.js'),
  'npm run bench:network': benchmarkExists('bench:network', 'dist/bench/network.js'),
  'npm run bench:dns': benchmarkExists('bench:dns', 'dist/bench/dns.js'),
  'npm run bench:gpu': benchmarkExists('bench:gpu', 'dist/bench/gpu.js'),
  'npm run bench:write-path': benchmarkExists('bench:write-path', 'dist/bench/write-path.js'),
};
