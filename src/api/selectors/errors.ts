// The one error both selector parsers throw. The API server answers it with 400 BadRequest,
// carrying the message as Kubernetes would word it.

export class SelectorError extends Error {
  /** Stable code, so callers can classify without string matching. */
  readonly code = 'InvalidSelector';

  constructor(message: string) {
    super(message);
    this.name = 'SelectorError';
  }
}

/** `path: Invalid value: "v": detail`, the shape of a Kubernetes field.Invalid error. */
export function invalidValue(path: string, value: string | readonly string[], detail: string): string {
  return `${path}: Invalid value: ${formatBadValue(value)}: ${detail}`;
}

// Go prints a bad string with %q and a bad []string with %#v; keep that look.
function formatBadValue(value: string | readonly string[]): string {
  if (typeof value === 'string') return JSON.stringify(value);
  return `[]string{${value.map((v) => JSON.stringify(v)).join(', ')}}`;
}

/** Several errors read as one, as apimachinery's error aggregate prints them. */
export function aggregate(messages: readonly string[]): string {
  return messages.length === 1 ? (messages[0] ?? '') : `[${messages.join(', ')}]`;
}
