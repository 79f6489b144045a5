// ownerReferences to owners that are gone. The garbage collector deletes a dependent whose
// owners are all gone; one it missed (it was down, or its cache lagged and it never looked
// again) stays forever. Each suspect owner is confirmed gone with a live read — absent, or
// present under another uid — as the collector itself does before deleting.
//
// Only owners of kinds the snapshot lists are judged: an owner of another kind may well exist.
// The repair (off by default) deletes a dependent whose owners are all gone, in the background
// as the collector would; one that still has a live owner is only reported.
import type { KubeObject, OwnerReference } from '../../api/meta.js';
import { resourceForKind, type ApiClient } from '../../client/index.js';
import { COLLECTED_RESOURCES } from '../../controllers/garbage-collector/index.js';
import { deleteIfSame, liveObject } from '../live.js';
import { describe, refOf, type Check, type Finding } from '../types.js';

const JUDGED_KINDS = new Set([...COLLECTED_RESOURCES.map((ref) => ref.kind), 'Node']);

async function ownerGone(api: ApiClient, dependent: KubeObject, owner: OwnerReference): Promise<boolean> {
  const ref = resourceForKind(owner.apiVersion, owner.kind);
  if (!ref) return false;
  return (await liveObject(api, ref, ref.namespaced ? dependent.metadata.namespace : undefined, owner.name, owner.uid)) === undefined;
}

async function allOwnersGone(api: ApiClient, dependent: KubeObject): Promise<boolean> {
  for (const owner of dependent.metadata.ownerReferences ?? []) if (!(await ownerGone(api, dependent, owner))) return false;
  return true;
}

export const danglingOwners: Check = async (snapshot, { api }) => {
  const findings: Finding[] = [];
  for (const dependent of snapshot.dependents) {
    if (dependent.metadata.deletionTimestamp) continue;
    const owners = dependent.metadata.ownerReferences ?? [];
    const suspects = owners.filter((owner) => JUDGED_KINDS.has(owner.kind) && !snapshot.byUid.has(owner.uid));
    const gone: OwnerReference[] = [];
    for (const owner of suspects) if (await ownerGone(api, dependent, owner)) gone.push(owner);
    if (gone.length === 0) continue;
    const ref = refOf(dependent);
    const names = gone.map((owner) => `${owner.kind} ${owner.name} (uid ${owner.uid})`).join(', ');
    const finding: Finding = { kind: 'DanglingOwnerReference', object: ref, message: `${describe(ref)} names owners that are gone: ${names}` };
    if (gone.length === owners.length) {
      finding.repair = {
        action: 'delete the dependent, as the garbage collector does when every owner is gone',
        nudge: false,
        run: async (client) => ((await allOwnersGone(client, dependent)) ? deleteIfSame(client, ref) : 'resolved'),
      };
    }
    findings.push(finding);
  }
  return findings;
};
