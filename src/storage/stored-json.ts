// The JSON text a store wrote for an object it handed back, kept beside the object so that an
// API response can send that text instead of serializing the same object a second time.
// Valid only while the object is unchanged: read it right after the write returns.
const texts = new WeakMap<object, string>();

export function rememberStoredJson(object: object, json: string): void {
  texts.set(object, json);
}

/** The text the store wrote for exactly this object, if it recorded one. */
export function storedJson(object: object): string | undefined {
  return texts.get(object);
}
