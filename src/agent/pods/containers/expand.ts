// Kubernetes' $(VAR) expansion for env values, command and args (the rules of
// k8s.io/kubernetes/third_party/forked/golang/expansion): $(VAR) is replaced when VAR is
// defined and left as written when not; $$ is an escaped $, so $$(VAR) stays $(VAR).

export function expand(input: string, lookup: (name: string) => string | undefined): string {
  let out = '';
  for (let i = 0; i < input.length; i++) {
    const c = input[i]!;
    if (c !== '$' || i + 1 >= input.length) {
      out += c;
      continue;
    }
    const next = input[i + 1]!;
    if (next === '$') {
      out += '$';
      i++;
      continue;
    }
    if (next !== '(') {
      out += c;
      continue;
    }
    const close = input.indexOf(')', i + 2);
    if (close < 0) {
      // An unclosed reference is kept literally; scanning goes on after it.
      out += '$(';
      i++;
      continue;
    }
    const name = input.slice(i + 2, close);
    out += (name === '' ? undefined : lookup(name)) ?? `$(${name})`;
    i = close;
  }
  return out;
}

export function expandAll(values: readonly string[] | undefined, env: Readonly<Record<string, string>>): string[] | undefined {
  if (values === undefined) return undefined;
  const lookup = (name: string): string | undefined => (Object.hasOwn(env, name) ? env[name] : undefined);
  return values.map((v) => expand(v, lookup));
}
