// The pod's resolv.conf on disk: written into the pod's folder at each container start (the
// pod's dnsConfig cannot change, but the agent's cluster DNS may have) and bound at
// /etc/resolv.conf in each of its containers, as the kubelet does with the sandbox's file.
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Mount } from '../../runtime/runtime.js';
import { podResolvConf, type DnsSettings } from './resolv-conf.js';
import { podDir } from '../volumes/set-up.js';
import type { Container, Pod } from '../../../api/core/index.js';

export const RESOLV_CONF_PATH = '/etc/resolv.conf';

/** The mount of the pod's resolv.conf; none when the container mounts its own or the runtime's default is kept. */
export async function resolvConfMount(dataDir: string, pod: Pod, container: Container, dns: DnsSettings): Promise<Mount | undefined> {
  if ((container.volumeMounts ?? []).some((m) => m.mountPath === RESOLV_CONF_PATH)) return undefined;
  const content = podResolvConf(pod, dns);
  if (content === undefined) return undefined;
  const path = join(podDir(dataDir, pod.metadata.uid ?? ''), 'resolv.conf');
  // Renamed into place: a container starting meanwhile never binds a half-written file.
  await mkdir(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, content, { mode: 0o644 });
  await rename(temporary, path);
  return { type: 'bind', source: path, target: RESOLV_CONF_PATH };
}
