// Name and key formats, with the exact messages of k8s.io/apimachinery/pkg/util/validation.
// Each function returns the list of problems (empty when valid), as the Go functions do.

const DNS1123_LABEL_FMT = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1123_SUBDOMAIN_FMT = `${DNS1123_LABEL_FMT}(\\.${DNS1123_LABEL_FMT})*`;
const DNS1035_LABEL_FMT = '[a-z]([-a-z0-9]*[a-z0-9])?';
const QUALIFIED_NAME_FMT = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const LABEL_VALUE_FMT = `(${QUALIFIED_NAME_FMT})?`;
const CONFIG_KEY_FMT = '[-._a-zA-Z0-9]+';

const dns1123Label = new RegExp(`^${DNS1123_LABEL_FMT}$`);
const dns1123Subdomain = new RegExp(`^${DNS1123_SUBDOMAIN_FMT}$`);
const dns1035Label = new RegExp(`^${DNS1035_LABEL_FMT}$`);
const qualifiedName = new RegExp(`^${QUALIFIED_NAME_FMT}$`);
const labelValue = new RegExp(`^${LABEL_VALUE_FMT}$`);
const configKey = new RegExp(`^${CONFIG_KEY_FMT}$`);

export function maxLenError(length: number): string {
  return `must be no more than ${length} characters`;
}

/** Kubernetes' RegexError: message, examples, and the regex used. */
export function regexError(message: string, format: string, ...examples: string[]): string {
  if (examples.length === 0) return `${message} (regex used for validation is '${format}')`;
  const shown = examples.map((example) => `'${example}', `).join(' or ');
  return `${message} (e.g. ${shown}regex used for validation is '${format}')`;
}

export function isDns1123Label(value: string): string[] {
  const errors: string[] = [];
  if (value.length > 63) errors.push(maxLenError(63));
  if (!dns1123Label.test(value)) {
    if (dns1123Subdomain.test(value)) errors.push('must not contain dots');
    else
      errors.push(
        regexError(
          "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character",
          DNS1123_LABEL_FMT,
          'my-name',
          '123-abc',
        ),
      );
  }
  return errors;
}

export function isDns1123Subdomain(value: string): string[] {
  const errors: string[] = [];
  if (value.length > 253) errors.push(maxLenError(253));
  if (!dns1123Subdomain.test(value)) {
    errors.push(
      regexError(
        "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character",
        DNS1123_SUBDOMAIN_FMT,
        'example.com',
      ),
    );
  }
  return errors;
}

export function isDns1035Label(value: string): string[] {
  const errors: string[] = [];
  if (value.length > 63) errors.push(maxLenError(63));
  if (!dns1035Label.test(value)) {
    errors.push(
      regexError(
        "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character",
        DNS1035_LABEL_FMT,
        'my-name',
        'abc-123',
      ),
    );
  }
  return errors;
}

const QUALIFIED_MSG = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";

/** Label keys, annotation keys, finalizers: an optional DNS subdomain prefix, '/', and a name. */
export function isQualifiedName(value: string): string[] {
  const errors: string[] = [];
  const parts = value.split('/');
  let name: string;
  if (parts.length === 1) {
    name = parts[0] ?? '';
  } else if (parts.length === 2) {
    const prefix = parts[0] ?? '';
    name = parts[1] ?? '';
    if (prefix.length === 0) errors.push('prefix part must be non-empty');
    else errors.push(...isDns1123Subdomain(prefix).map((message) => `prefix part ${message}`));
  } else {
    return [
      `a qualified name ${regexError(QUALIFIED_MSG, QUALIFIED_NAME_FMT, 'MyName', 'my.name', '123-abc')} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ];
  }
  if (name.length === 0) errors.push('name part must be non-empty');
  else if (name.length > 63) errors.push(`name part ${maxLenError(63)}`);
  if (!qualifiedName.test(name)) errors.push(`name part ${regexError(QUALIFIED_MSG, QUALIFIED_NAME_FMT, 'MyName', 'my.name', '123-abc')}`);
  return errors;
}

export function isLabelValue(value: string): string[] {
  const errors: string[] = [];
  if (value.length > 63) errors.push(maxLenError(63));
  if (!labelValue.test(value)) {
    errors.push(
      regexError(
        "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
        LABEL_VALUE_FMT,
        'MyValue',
        'my_value',
        '12345',
      ),
    );
  }
  return errors;
}

/** Keys of ConfigMap and Secret data. */
export function isConfigMapKey(value: string): string[] {
  const errors: string[] = [];
  if (value.length > 253) errors.push(maxLenError(253));
  if (!configKey.test(value)) {
    errors.push(regexError("a valid config key must consist of alphanumeric characters, '-', '_' or '.'", CONFIG_KEY_FMT, 'key.name', 'KEY_NAME', 'key-name'));
  }
  if (value === '.') errors.push("must not be '.'");
  else if (value === '..') errors.push("must not be '..'");
  else if (value.startsWith('..')) errors.push("must not start with '..'");
  return errors;
}

/** Environment variable names (the relaxed rule, on by default since Kubernetes 1.32). */
export function isEnvVarName(value: string): string[] {
  if (value.length === 0) return ['environment variable name must be non-empty'];
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 32 || code > 126 || value[i] === '=') {
      return ["a valid environment variable name must consist only of printable ASCII characters other than '='"];
    }
  }
  return [];
}

/** IANA service names used as port names. */
export function isValidPortName(port: string): string[] {
  const errors: string[] = [];
  if (port.length > 15) errors.push(maxLenError(15));
  if (!/^[-a-z0-9]+$/.test(port)) errors.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (!/[a-z]/.test(port)) errors.push('must contain at least one letter (a-z)');
  if (port.includes('--')) errors.push('must not contain consecutive hyphens');
  if (port.startsWith('-') || port.endsWith('-')) errors.push('must not begin or end with a hyphen');
  return errors;
}

export function isValidPortNum(port: number): string[] {
  return port >= 1 && port <= 65535 ? [] : ['must be between 1 and 65535, inclusive'];
}

export function isValidIP(value: string): boolean {
  return isIPv4(value) || isIPv6(value);
}

export function isIPv4(value: string): boolean {
  const parts = value.split('.');
  return parts.length === 4 && parts.every((part) => /^\d{1,3}$/.test(part) && Number(part) <= 255 && (part === '0' || !part.startsWith('0')));
}

export function isIPv6(value: string): boolean {
  if (!/^[0-9a-fA-F:.]+$/.test(value) || !value.includes(':')) return false;
  const doubleColons = value.split('::').length - 1;
  if (doubleColons > 1) return false;
  const groups = value.split(':').filter((group) => group !== '');
  const last = groups[groups.length - 1] ?? '';
  const hasV4 = last.includes('.');
  if (hasV4 && !isIPv4(last)) return false;
  const hexGroups = hasV4 ? groups.slice(0, -1) : groups;
  if (!hexGroups.every((group) => /^[0-9a-fA-F]{1,4}$/.test(group))) return false;
  const count = hexGroups.length + (hasV4 ? 2 : 0);
  return doubleColons === 1 ? count < 8 : count === 8;
}

/**
 * Names that only have to be one URL path segment (apimachinery's IsValidPathSegmentName), as
 * RBAC names are: they may hold colons and capitals (system:basic-user).
 */
export function isPathSegmentName(value: string): string[] {
  if (value === '.' || value === '..') return [`may not be '${value}'`];
  const errors: string[] = [];
  for (const illegal of ['/', '%']) if (value.includes(illegal)) errors.push(`may not contain '${illegal}'`);
  return errors;
}

/** Name validators by the kind of name a resource uses. */
export type NameRule = 'dns1123-subdomain' | 'dns1123-label' | 'dns1035-label' | 'path-segment';

export function checkName(rule: NameRule, name: string): string[] {
  if (rule === 'path-segment') return isPathSegmentName(name);
  if (rule === 'dns1123-label') return isDns1123Label(name);
  if (rule === 'dns1035-label') return isDns1035Label(name);
  return isDns1123Subdomain(name);
}
