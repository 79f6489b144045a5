// Request bodies are plain data, and `__proto__` is a key like any other in them: a ConfigMap
// may hold it, and an apply or a patch may name it. While Object.prototype carries its
// `__proto__` accessor, `target[key] = value` with that key swaps target's prototype instead
// of setting a member, and a deep merge that reads `target[key]` first walks into
// Object.prototype itself and changes every object in the process (a server-side apply did
// exactly that). Removing the accessor, as Node's --disable-proto=delete does, makes the key
// ordinary everywhere: in our code, in the YAML and patch libraries, and in code not yet
// written. Object.getPrototypeOf/setPrototypeOf are unaffected.
delete (Object.prototype as { __proto__?: unknown }).__proto__;
export {};
