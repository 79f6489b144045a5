// The pod floor: what Drover's pod model costs Docker itself, with no orchestrator around it.
// A pod is a pause sandbox (its own network namespace on the bridge) plus the app container
// joined to it: two container starts where `docker run` and a Swarm task make one. The floor
// makes exactly those containers, with the agent's own runtime code and create options, the
// app created while its sandbox starts, all pods at once, straight through the Engine API
// (no CLI process, no API server, no scheduler). What Drover adds on top is its own cost;
// what the floor takes is the least any runtime following this pod model can take here.
import { randomUUID } from 'node:crypto';
import { DockerRuntime } from '../src/agent/runtime/docker/index.js';
import { concurrently } from './peers.js';

const NAMESPACE = 'drover-floor';
const LABEL = 'drover.dev/bench-floor';

export class PodFloor {
  private readonly runtime = new DockerRuntime({ namePrefix: 'drover-floor' });
  /** This floor's label value: its containers, whatever other floors share the Docker. */
  readonly run = randomUUID().slice(0, 8);
  private made = 0;

  /** Starts `count` pods at once (at most `limit` in the making at a time); resolves when every app container runs. */
  async start(count: number, image: string, command: string[], limit = Infinity): Promise<void> {
    await this.runtime.ensurePauseImage();
    await concurrently(count, limit, () => this.startOne(image, command));
  }

  /** Removes every container this floor made, running or not (not measured), at most `limit` pods at a time. */
  async removeAll(limit = Infinity): Promise<void> {
    const sandboxes = await this.runtime.listSandboxes({ labels: { [LABEL]: this.run } });
    await concurrently(sandboxes.length, limit, (i) => this.runtime.removeSandbox(sandboxes[i]!.id));
  }

  private async startOne(image: string, command: string[]): Promise<void> {
    const n = this.made++;
    const pod = { uid: randomUUID(), name: `floor-${n}`, namespace: NAMESPACE };
    const labels = { [LABEL]: this.run };
    const sandbox = await this.runtime.beginSandbox({ pod, attempt: 0, hostname: pod.name, labels });
    const appId = await this.runtime.createContainer({ pod, sandboxId: sandbox.created.id, name: 'main', attempt: 0, image, command, labels });
    await sandbox.running;
    await this.runtime.startContainer(appId);
  }
}
