// Containers on a node for pods the API no longer has. The agent removes those itself at its
// housekeeping (every 30 s), so a pod that just went away is normal; what persists across two
// looks the settle time apart, and is still absent from a fresh pod list (a pod created after
// the snapshot is not an orphan), is an agent whose clean-up is not working. The repair (off by
// default) asks the agent to clean the pod up now; it refuses while it still has the pod.
import type { KubeObject } from '../../api/meta.js';
import { resources, type ApiClient } from '../../client/index.js';
import { askAgent, askAgents, type AgentInventories } from '../agents.js';
import { refOf, type Check, type Finding } from '../types.js';

/** uid → node, for the uids the agents hold that the pods given lack (and are not ending). */
function suspects(inventories: AgentInventories, pods: readonly KubeObject[]): Map<string, string> {
  const known = new Set(pods.map((pod) => pod.metadata.uid));
  const found = new Map<string, string>();
  for (const [node, answer] of inventories.answers) {
    for (const { uid, state } of answer.pods) if (!known.has(uid) && state !== 'terminating') found.set(uid, node);
  }
  return found;
}

async function confirm(api: ApiClient, first: Map<string, string>, nodes: readonly KubeObject[], settleMs: number): Promise<Map<string, string>> {
  if (settleMs > 0) await new Promise((resolve) => setTimeout(resolve, settleMs));
  const asked = nodes.filter((node) => [...first.values()].includes(node.metadata.name ?? ''));
  const again = await askAgents(asked, api.config.tls);
  const pods = (await api.resource(resources.pods).listAll()).items;
  const second = suspects(again, pods);
  return new Map([...first].filter(([uid, node]) => second.get(uid) === node));
}

export const orphanContainers: Check = async (snapshot, { api, options }) => {
  const inventories = snapshot.agentPods;
  if (!inventories) return [];
  const first = suspects(inventories, snapshot.pods);
  if (first.size === 0) return [];
  const confirmed = await confirm(api, first, snapshot.nodes, options.settleMs);
  const nodesByName = new Map(snapshot.nodes.map((node) => [node.metadata.name ?? '', node]));
  const findings: Finding[] = [];
  for (const [uid, nodeName] of confirmed) {
    const node = nodesByName.get(nodeName)!;
    findings.push({
      kind: 'OrphanContainer',
      object: refOf(node),
      message: `node ${nodeName} runs containers of pod uid ${uid}, which the API does not have`,
      repair: {
        action: "ask the node's agent to remove the pod's containers",
        nudge: false,
        run: async () => {
          await askAgent(node, 'DELETE', `/pods/${encodeURIComponent(uid)}`, 202, api.config.tls);
          return 'repaired';
        },
      },
    });
  }
  return findings;
};
