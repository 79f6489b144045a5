// The one logging seam of the client library. Components pass their own logger (or a silent
// one in tests); the default writes one line per message to stderr, prefixed by the component.

export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

function format(component: string, message: string, fields?: Record<string, unknown>): string {
  if (!fields || Object.keys(fields).length === 0) return `[${component}] ${message}`;
  const parts = Object.entries(fields).map(([key, value]) => `${key}=${describe(value)}`);
  return `[${component}] ${message} ${parts.join(' ')}`;
}

function describe(value: unknown): string {
  if (value instanceof Error) return JSON.stringify(value.message);
  if (typeof value === 'string') return JSON.stringify(value);
  return String(value);
}

/** Debug lines only when DROVER_DEBUG is set, so a busy controller does not flood stderr. */
export function consoleLogger(component: string): Logger {
  const debugOn = Boolean(process.env['DROVER_DEBUG']);
  return {
    debug: (m, f) => {
      if (debugOn) console.debug(format(component, m, f));
    },
    info: (m, f) => console.info(format(component, m, f)),
    warn: (m, f) => console.warn(format(component, m, f)),
    error: (m, f) => console.error(format(component, m, f)),
  };
}

export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };
