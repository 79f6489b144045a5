// The node's resolver configuration, the base of pods under dnsPolicy Default (and of the
// search domains under ClusterFirst). Read once per agent: the kubelet too reads its
// --resolv-conf file as configured, not on every pod.
//
// On hosts running systemd-resolved, /etc/resolv.conf names only its stub, 127.0.0.53, which
// a container in its own network namespace cannot reach. As kubeadm's and k3s' kubelets do,
// the upstream list systemd-resolved keeps is taken then.
import { readFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import { parseResolvConf } from './resolv-conf.js';

export const ETC_RESOLV_CONF = '/etc/resolv.conf';
export const SYSTEMD_RESOLV_CONF = '/run/systemd/resolve/resolv.conf';

async function readOrEmpty(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    return '';
  }
}

/** A nameserver a pod's own network namespace can reach: not loopback (nor unspecified). */
function reachableFromPods(nameserver: string): boolean {
  if (isIP(nameserver) === 4) return !nameserver.startsWith('127.') && nameserver !== '0.0.0.0';
  if (isIP(nameserver) === 6) return nameserver !== '::1' && nameserver !== '::';
  return false;
}

function usable(text: string): boolean {
  return parseResolvConf(text).nameservers.some(reachableFromPods);
}

/**
 * The host's resolv.conf text from the given files: the first whose nameservers pods can reach,
 * else the first file's text ('' when missing).
 */
export async function loadHostResolvConf(paths: readonly string[] = [ETC_RESOLV_CONF, SYSTEMD_RESOLV_CONF]): Promise<string> {
  const texts: string[] = [];
  for (const path of paths) {
    const text = await readOrEmpty(path);
    if (usable(text)) return text;
    texts.push(text);
  }
  return texts[0] ?? '';
}

let cached: Promise<string> | undefined;

/** The host's resolv.conf text, read on the first call ('' when there is none). */
export function readHostResolvConf(): Promise<string> {
  cached ??= loadHostResolvConf();
  return cached;
}
