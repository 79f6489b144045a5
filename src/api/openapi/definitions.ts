// Turns the inline schemas into OpenAPI definitions: every named sub-schema becomes its own
// definition and is referenced with $ref (v2) or allOf: [$ref] (v3, where $ref siblings are
// ignored), so documents stay small and `kubectl explain` shows type names such as <PodSpec>.
import { isObject } from '../meta.js';
import { DEFINITION_KEY, OPENAPI_OVERRIDE_KEY, namedDefinitions } from '../schemas/builders.js';

export type Flavor = 'v2' | 'v3';
type Node = Record<string, unknown>;

/** Keys used only inside Drover (and closedness, which Kubernetes does not publish). */
const INTERNAL_KEYS = new Set([DEFINITION_KEY, OPENAPI_OVERRIDE_KEY]);

export function refTo(name: string, flavor: Flavor): Node {
  return { $ref: flavor === 'v2' ? `#/definitions/${name}` : `#/components/schemas/${name}` };
}

/** Collects published definitions for one document. */
export class DefinitionSet {
  readonly definitions: Record<string, Node> = {};

  constructor(readonly flavor: Flavor) {}

  /** Publishes the named definition `name` (and everything it references); returns its $ref. */
  add(name: string): Node {
    if (!(name in this.definitions)) {
      const canonical = namedDefinitions.get(name);
      if (!canonical) throw new Error(`unknown schema definition ${name}`);
      this.definitions[name] = {}; // placeholder: guards against cycles while publishing
      this.definitions[name] = this.body(canonical as Node);
    }
    return refTo(name, this.flavor);
  }

  /** Adds an already-published definition built by the caller (e.g. a List kind). */
  addRaw(name: string, body: Node): Node {
    this.definitions[name] = body;
    return refTo(name, this.flavor);
  }

  /** A schema in published form, with named sub-schemas replaced by references. */
  publish(node: Node): Node {
    const name = node[DEFINITION_KEY];
    if (typeof name !== 'string') return this.body(node);
    const ref = this.add(name);
    const canonical = namedDefinitions.get(name) as Node | undefined;
    const description = node['description'];
    const extra: Node = typeof description === 'string' && description !== canonical?.['description'] ? { description } : {};
    // A field's own patch semantics (DeploymentSpec.strategy's retainKeys) sit beside its $ref, as Kubernetes publishes them.
    for (const [key, value] of Object.entries(node)) {
      if (key.startsWith('x-kubernetes-') && value !== canonical?.[key]) extra[key] = value;
    }
    if (this.flavor === 'v2') return { ...ref, ...extra };
    return { allOf: [ref], ...extra };
  }

  private body(node: Node): Node {
    const override = node[OPENAPI_OVERRIDE_KEY];
    if (isObject(override)) return { ...override, description: node['description'] };
    const out: Node = {};
    for (const [key, value] of Object.entries(node)) {
      if (INTERNAL_KEYS.has(key)) continue;
      if (key === 'additionalProperties' && value === false) continue;
      if (key === 'properties' && isObject(value)) out[key] = this.publishProperties(value);
      else if ((key === 'items' || key === 'additionalProperties') && isObject(value)) out[key] = this.publish(value);
      else out[key] = value;
    }
    return out;
  }

  private publishProperties(properties: Node): Node {
    const out: Node = {};
    for (const [key, value] of Object.entries(properties)) out[key] = isObject(value) ? this.publish(value) : value;
    return out;
  }
}
