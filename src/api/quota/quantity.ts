// Exact resource.Quantity arithmetic for quota and limit ranges. Quota sums many small
// quantities ("100m" ten times must be exactly "1", not 0.9999999), so values are integers of
// nano-units (bigint) instead of the floats that src/api/validation/quantity.ts compares with.
// Each quantity keeps the format its text had, and prints in Kubernetes' canonical form, so
// `status.used` and the refusal messages read as Kubernetes writes them ("200m", "256Mi", "1k").

export type QuantityFormat = 'DecimalSI' | 'BinarySI' | 'DecimalExponent';

export interface Quantity {
  /** The value in units of 10^-9 (rounded up, as Kubernetes rounds below nano precision). */
  readonly nano: bigint;
  readonly format: QuantityFormat;
}

/** Resource names to quantities, as a ResourceList is. */
export type QuantityMap = Map<string, Quantity>;

const NANO = 10n ** 9n;
const SYNTAX = /^([+-]?)(\d*)(?:\.(\d*))?(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E|[eE][+-]?\d+)?$/;
const DECIMAL_EXPONENTS: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const BINARY_POWERS: Record<string, bigint> = { Ki: 1n, Mi: 2n, Gi: 3n, Ti: 4n, Pi: 5n, Ei: 6n };
const BINARY_SUFFIXES = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'];
const DECIMAL_SUFFIXES: Record<number, string> = { [-9]: 'n', [-6]: 'u', [-3]: 'm', 0: '', 3: 'k', 6: 'M', 9: 'G', 12: 'T', 15: 'P', 18: 'E' };

export const ZERO: Quantity = { nano: 0n, format: 'DecimalSI' };

/** Parses "500m", "1.5Gi", "2e3" or a JSON number; undefined when malformed. */
export function parseQuantity(value: unknown): Quantity | undefined {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return undefined;
    text = String(value);
    if (/e/i.test(text)) text = value.toFixed(9); // 1e-7 as a JSON number: digits, not an exponent suffix
  } else if (typeof value === 'string') {
    text = value.trim();
  } else {
    return undefined;
  }
  const match = SYNTAX.exec(text);
  if (!match) return undefined;
  const [, sign = '', whole = '', fraction = '', suffix = ''] = match;
  if (whole === '' && fraction === '') return undefined;
  const digits = BigInt(`${whole}${fraction}` || '0');
  // value = digits × 10^-fraction.length × multiplier; nano = value × 10^9.
  let numerator = digits;
  let denominator = 10n ** BigInt(fraction.length);
  let format: QuantityFormat = 'DecimalSI';
  if (suffix in BINARY_POWERS) {
    numerator *= 1024n ** BINARY_POWERS[suffix]! * NANO;
    format = 'BinarySI';
  } else {
    const exponent = suffix.startsWith('e') || suffix.startsWith('E') ? Number(suffix.slice(1)) : DECIMAL_EXPONENTS[suffix]!;
    if (suffix.startsWith('e') || suffix.startsWith('E')) format = 'DecimalExponent';
    const scale = exponent + 9;
    if (scale >= 0) numerator *= 10n ** BigInt(scale);
    else denominator *= 10n ** BigInt(-scale);
  }
  const nano = (numerator + denominator - 1n) / denominator; // rounded up, as Kubernetes does
  return { nano: sign === '-' ? -nano : nano, format };
}

export function add(a: Quantity, b: Quantity): Quantity {
  return { nano: a.nano + b.nano, format: a.nano === 0n && a.format !== b.format ? b.format : a.format };
}

export function subtract(a: Quantity, b: Quantity): Quantity {
  return { nano: a.nano - b.nano, format: a.format };
}

export function max(a: Quantity, b: Quantity): Quantity {
  return compare(a, b) >= 0 ? a : b;
}

export function compare(a: Quantity, b: Quantity): number {
  return a.nano === b.nano ? 0 : a.nano < b.nano ? -1 : 1;
}

/** Kubernetes' Quantity.String(): the canonical text of the value in its format. */
export function formatQuantity(quantity: Quantity): string {
  const { nano } = quantity;
  if (nano === 0n) return '0';
  const negative = nano < 0n;
  const magnitude = negative ? -nano : nano;
  const text = quantity.format === 'BinarySI' ? binaryText(magnitude) : decimalText(magnitude, quantity.format === 'DecimalExponent');
  return negative ? `-${text}` : text;
}

/** Ki..Ei when the value is a whole number of bytes at least 1024; otherwise decimal, as Kubernetes falls back. */
function binaryText(nano: bigint): string {
  if (nano % NANO !== 0n || nano < 1024n * NANO) return decimalText(nano, false);
  let value = nano / NANO;
  let power = 0;
  while (power < BINARY_SUFFIXES.length - 1 && value % 1024n === 0n) {
    value /= 1024n;
    power++;
  }
  return `${value}${BINARY_SUFFIXES[power]}`;
}

/** The largest exponent (a multiple of 3, up to 18) that leaves an integer mantissa. */
function decimalText(nano: bigint, exponentForm: boolean): string {
  let mantissa = nano;
  let exponent = -9;
  while (exponent < 18 && mantissa % 1000n === 0n) {
    mantissa /= 1000n;
    exponent += 3;
  }
  if (exponentForm) return exponent === 0 ? `${mantissa}` : `${mantissa}e${exponent}`;
  return `${mantissa}${DECIMAL_SUFFIXES[exponent]}`;
}

/** A ResourceList as quantities; malformed entries are left out (validation refuses them elsewhere). */
export function quantityMap(list: unknown): QuantityMap {
  const out: QuantityMap = new Map();
  if (typeof list !== 'object' || list === null || Array.isArray(list)) return out;
  for (const [name, value] of Object.entries(list)) {
    const quantity = parseQuantity(value);
    if (quantity) out.set(name, quantity);
  }
  return out;
}

/** A QuantityMap as the JSON ResourceList Kubernetes writes, names in order. */
export function toResourceList(map: QuantityMap): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of [...map.keys()].sort()) out[name] = formatQuantity(map.get(name)!);
  return out;
}

/** a + b, resource by resource. */
export function addMaps(a: QuantityMap, b: QuantityMap): QuantityMap {
  const out: QuantityMap = new Map(a);
  for (const [name, quantity] of b) out.set(name, add(out.get(name) ?? ZERO, quantity));
  return out;
}

/** a − b, resource by resource, never below zero (quota's SubtractWithNonNegativeResult). */
export function subtractMapsNonNegative(a: QuantityMap, b: QuantityMap): QuantityMap {
  const out: QuantityMap = new Map();
  for (const [name, quantity] of a) {
    const difference = subtract(quantity, b.get(name) ?? ZERO);
    out.set(name, difference.nano < 0n ? { ...difference, nano: 0n } : difference);
  }
  return out;
}

/** The larger of a and b, resource by resource. */
export function maxMaps(a: QuantityMap, b: QuantityMap): QuantityMap {
  const out: QuantityMap = new Map(a);
  for (const [name, quantity] of b) {
    const current = out.get(name);
    out.set(name, current ? max(current, quantity) : quantity);
  }
  return out;
}

/** Only the named resources of a map. */
export function mask(map: QuantityMap, names: Iterable<string>): QuantityMap {
  const out: QuantityMap = new Map();
  for (const name of names) {
    const quantity = map.get(name);
    if (quantity) out.set(name, quantity);
  }
  return out;
}

/** "pods=1,requests.cpu=100m", names in order: how quota messages print a ResourceList. */
export function prettyPrint(map: QuantityMap): string {
  return [...map.keys()]
    .sort()
    .map((name) => `${name}=${formatQuantity(map.get(name)!)}`)
    .join(',');
}

export function isZero(map: QuantityMap): boolean {
  for (const quantity of map.values()) if (quantity.nano !== 0n) return false;
  return true;
}
