// Reading a question's name against the cluster domain. Matching is case-insensitive (RFC 4343)
// but answers echo the name as asked, so both spellings travel together.
import { isIPv4 } from 'node:net';

/** RFC 1035 2.3.4: 63 octets a label, 255 a name on the wire (253 characters in text form). */
const MAX_LABEL_OCTETS = 63;
const MAX_NAME_CHARS = 253;

export interface ZoneName {
  /** The labels left of the cluster domain, in the question's own spelling. */
  readonly asked: readonly string[];
  /** The same labels lower-cased, for matching. */
  readonly lower: readonly string[];
}

/** A name without its trailing dot; "." (the root) becomes "". */
export function trimDot(name: string): string {
  return name.endsWith('.') ? name.slice(0, -1) : name;
}

/** Whether a name respects the label and length limits; a query that breaks them is malformed. */
export function isWellFormedName(name: string): boolean {
  const trimmed = trimDot(name);
  if (trimmed === '') return true;
  if (Buffer.byteLength(trimmed) > MAX_NAME_CHARS) return false;
  return trimmed.split('.').every((label) => label.length > 0 && Buffer.byteLength(label) <= MAX_LABEL_OCTETS);
}

/**
 * The labels of `name` left of `domain`, or undefined when the name is outside the domain.
 * `domain` is expected lower-case without a trailing dot.
 */
export function relativeTo(name: string, domain: string): ZoneName | undefined {
  const trimmed = trimDot(name);
  const lowered = trimmed.toLowerCase();
  if (lowered === domain) return { asked: [], lower: [] };
  if (!lowered.endsWith(`.${domain}`)) return undefined;
  const askedPart = trimmed.slice(0, trimmed.length - domain.length - 1);
  return { asked: askedPart.split('.'), lower: askedPart.toLowerCase().split('.') };
}

/** `10-0-0-1` for 10.0.0.1: how Kubernetes DNS spells an address as one label. */
export function dashedAddress(address: string): string {
  return address.replaceAll('.', '-');
}

/** 10.0.0.1 for the label `10-0-0-1`, or undefined when the label is not a dashed IPv4 address. */
export function addressFromDashes(label: string): string | undefined {
  const dotted = label.replaceAll('-', '.');
  // isIPv4 accepts only four decimal octets, which rules out `1--2-3` and leading signs.
  return isIPv4(dotted) ? dotted : undefined;
}

/** The domain as the records use it: lower-case, no trailing dot. */
export function normalizeDomain(domain: string): string {
  const normalized = trimDot(domain.trim()).toLowerCase();
  if (normalized === '' || !isWellFormedName(normalized)) throw new Error(`invalid cluster domain ${JSON.stringify(domain)}`);
  return normalized;
}
