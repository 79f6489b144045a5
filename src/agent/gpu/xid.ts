// Xid errors: the NVIDIA driver's reports of a GPU fault, which it writes to the kernel log as
//   NVRM: Xid (PCI:0000:3b:00): 79, pid=1234, name=python3, GPU has fallen off the bus.
// (older drivers leave out "pid=..., name=...,"; an unknown process reads pid='<unknown>',
// name=<unknown>; a MIG instance adds " GPU-I:05" after the bus id). `nvidia-smi --query-gpu`
// has no field for them, so the agent follows the kernel log (node/kernel-log.ts).
//
// Which Xids take a GPU out: those whose "Immediate Action" in NVIDIA's Xid catalog
// (https://docs.nvidia.com/deploy/xid-errors/analyzing-xid-catalog.html) is a GPU reset or a
// reboot, i.e. the GPU itself is in a bad state and every later job on it would fail too:
//   46  GPU stopped processing                 62  internal micro-controller halted
//   48  double-bit ECC error (DBE)             64  row remapping failed
//   74  NVLink error                           79  GPU has fallen off the bus
//   95  uncontained ECC error                  119 / 120  GSP RPC timeout / GSP error
// Left out on purpose, as the catalog's action is to restart the application (the fault is the
// application's, or the driver contained it to that application):
//   13 graphics engine exception, 31 GPU memory page fault, 43 GPU stopped processing (reset
//   channel), 45 preemptive cleanup, 94 contained ECC error; likewise 63 (a row marked for
//   remapping: the GPU goes on, the remap takes effect at the next reset) and 92 (high
//   single-bit ECC rate, corrected). NVIDIA's k8s-device-plugin also skips 13, 31, 43 and 45.
// 154 ("GPU recovery action changed to ...") only restates the action for an Xid above.

export const FATAL_XIDS: ReadonlySet<number> = new Set([46, 48, 62, 64, 74, 79, 95, 119, 120]);

export interface XidError {
  /** The GPU's PCI address as normaliseBusId writes it ("0000:3b:00"). */
  busId: string;
  xid: number;
  /** The driver's text after the process, without the final period ("GPU has fallen off the bus"). */
  text: string;
}

const XID_LINE = /NVRM: Xid \(PCI:([0-9a-fA-F]+:[0-9a-fA-F]+:[0-9a-fA-F]+)(?:\.[0-7])?(?: [^)]*)?\): (\d+), (.*)$/;

/** The Xid error a kernel log message reports, if it is one. */
export function parseXid(message: string): XidError | undefined {
  const match = XID_LINE.exec(message.trimEnd());
  if (!match) return undefined;
  const busId = normaliseBusId(match[1]!);
  if (!busId) return undefined;
  const text = match[3]!
    .replace(/^pid=[^,]*, /, '')
    .replace(/^name=[^,]*, /, '')
    .replace(/\.$/, '')
    .trim();
  return { busId, xid: Number(match[2]), text };
}

export function isFatalXid(xid: number): boolean {
  return FATAL_XIDS.has(xid);
}

/**
 * One spelling of a PCI address for the two that meet here: nvidia-smi's pci.bus_id
 * ("00000000:3B:00.0": 32-bit domain, upper case, function) and the driver's kernel log
 * ("0000:3b:00": 16-bit domain, lower case, no function). A GPU is function 0 of its device,
 * so the function is dropped. Undefined for what is not a PCI address.
 */
export function normaliseBusId(id: string): string | undefined {
  const match = /^([0-9a-fA-F]{1,8}):([0-9a-fA-F]{1,2}):([0-9a-fA-F]{1,2})(?:\.[0-7])?$/.exec(id.trim());
  if (!match) return undefined;
  const hex = (part: string, width: number) => parseInt(part, 16).toString(16).padStart(width, '0');
  return `${hex(match[1]!, 4)}:${hex(match[2]!, 2)}:${hex(match[3]!, 2)}`;
}
