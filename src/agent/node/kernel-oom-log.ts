// OOM kills as the kernel logs them. Docker learns of an OOM kill from containerd, whose shim
// (cgroup v1) registers for the cgroup's OOM notification only once the container has started:
// a process killed in its first moments while the machine is busy leaves no OOMKilled mark and
// no `oom` event, only exit code 137 (3 of 6 runs here, with containers starting alongside).
// The kernel's own line names the memory cgroup and with it the container, as cAdvisor reads it:
//   oom-kill:constraint=CONSTRAINT_MEMCG,...,task_memcg=/docker/<id>,task=sh,pid=4240,uid=0
// (`/system.slice/docker-<id>.scope` under the systemd cgroup driver).
//
// The log is followed by kernel-log.ts; replayed records count too: an old kill named again does
// no harm (a container id is never reused).

/** The container a kernel log message says an OOM kill happened in, if it is such a message. */
export function oomKilledContainer(message: string): string | undefined {
  if (!message.startsWith('oom-kill:')) return undefined;
  const memcg = /(?:^|,)task_memcg=([^,\s]*)/.exec(message)?.[1] ?? '';
  return /([0-9a-f]{64})(?:\.scope)?$/.exec(memcg)?.[1];
}

/** The containers OOM-killed according to these messages. */
export function oomKilledContainers(messages: readonly string[]): string[] {
  return messages.flatMap((m) => oomKilledContainer(m) ?? []);
}
