// Resource quantities ("500m", "1Gi", "1e3", 2): syntax check and conversion to a number,
// enough to compare requests with limits. Serialization stays the caller's (the API keeps
// the string the client sent).

const QUANTITY = /^([+-]?(?:\d+\.?\d*|\.\d+))(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E|[eE][+-]?\d+)?$/;

const MULTIPLIERS: Record<string, number> = {
  '': 1,
  n: 1e-9,
  u: 1e-6,
  m: 1e-3,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
};

export function isQuantity(text: string): boolean {
  return QUANTITY.test(text);
}

/** The value of a quantity as a number (CPU in cores, memory in bytes); undefined when malformed. */
export function parseQuantity(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const match = QUANTITY.exec(value);
  if (!match) return undefined;
  const base = Number(match[1]);
  const suffix = match[2] ?? '';
  if (suffix.startsWith('e') || suffix.startsWith('E')) return base * 10 ** Number(suffix.slice(1));
  const multiplier = MULTIPLIERS[suffix];
  return multiplier === undefined ? undefined : base * multiplier;
}
