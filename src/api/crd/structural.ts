// Whether a version's openAPIV3Schema is structural, as apiextensions.k8s.io/v1 requires: every
// field has a type (or x-kubernetes-int-or-string / x-kubernetes-preserve-unknown-fields), the
// root is an object, properties and additionalProperties exclude each other, the logical
// combinators only validate values (no types or extensions inside them), and the JSON-Schema
// features Kubernetes does not support are refused. The errors carry Kubernetes' field paths and
// messages, so a 422 names the schema node at fault.
import { isObject, type FieldError } from '../meta.js';
import { forbidden, invalid, notSupported, required } from '../validation/field-errors.js';
import { prune } from './prune-default.js';
import { child, isEmbedded, isIntOrString, preservesUnknown, type SchemaNode } from './schema-node.js';
import { patternOf, validateValue } from './value-validation.js';
import { compileRule } from './cel/rules.js';

const TYPES = ['array', 'boolean', 'integer', 'number', 'object', 'string'];
const UNSUPPORTED = ['$ref', '$schema', 'id', 'definitions', 'dependencies', 'additionalItems', 'patternProperties'];
const COMBINATORS = ['allOf', 'anyOf', 'oneOf'];
/** What a value validation (inside allOf/anyOf/oneOf/not) may not say: it only validates. */
const NOT_IN_VALUE_VALIDATION = [
  'type',
  'nullable',
  'default',
  'additionalProperties',
  'x-kubernetes-preserve-unknown-fields',
  'x-kubernetes-embedded-resource',
  'x-kubernetes-int-or-string',
  'x-kubernetes-list-type',
  'x-kubernetes-list-map-keys',
  'x-kubernetes-map-type',
];

export function validateStructuralSchema(schema: unknown, path: string): FieldError[] {
  const errors: FieldError[] = [];
  if (!isObject(schema)) return [required(path, 'schemas are required')];
  if (schema['type'] === undefined || schema['type'] === '') errors.push(required(`${path}.type`, 'must not be empty at the root'));
  else if (schema['type'] !== 'object') errors.push(invalid(`${path}.type`, schema['type'], 'must be object at the root'));
  checkRootMetadata(schema, path, errors);
  checkNode(schema, path, 'root', errors);
  return errors;
}

/** Only metadata.name and metadata.generateName may be constrained; the rest is ObjectMeta's. */
function checkRootMetadata(schema: SchemaNode, path: string, errors: FieldError[]): void {
  const metadata = child(child(schema, 'properties') ?? {}, 'metadata');
  if (!metadata) return;
  const extraKeys = Object.keys(metadata).filter((key) => !['type', 'properties', 'description'].includes(key));
  const properties = Object.keys(child(metadata, 'properties') ?? {}).filter((key) => key !== 'name' && key !== 'generateName');
  if (extraKeys.length > 0 || properties.length > 0 || (metadata['type'] !== undefined && metadata['type'] !== 'object')) {
    errors.push(forbidden(`${path}.properties[metadata]`, 'must not specify anything other than name and generateName, but metadata is implicitly specified'));
  }
}

type Place = 'root' | 'property' | 'items' | 'additionalProperties';

function checkNode(node: SchemaNode, path: string, place: Place, errors: FieldError[]): void {
  for (const key of UNSUPPORTED) if (node[key] !== undefined) errors.push(forbidden(`${path}.${key}`, `${key} is not supported`));
  const type = node['type'];
  const typeless = type === undefined || type === '';
  if (typeless && place !== 'root' && !isIntOrString(node) && !preservesUnknown(node)) {
    errors.push(required(`${path}.type`, place === 'items' ? 'must not be empty for specified array items' : 'must not be empty for specified object fields'));
  }
  if (!typeless && !TYPES.includes(String(type))) errors.push(notSupported(`${path}.type`, type, TYPES));
  if (isIntOrString(node) && !typeless) errors.push(invalid(`${path}.type`, type, 'must be empty if x-kubernetes-int-or-string is true'));
  if (isEmbedded(node) && type !== 'object') errors.push(invalid(`${path}.type`, type ?? '', 'must be object if x-kubernetes-embedded-resource is true'));
  if (node['x-kubernetes-preserve-unknown-fields'] === false)
    errors.push(invalid(`${path}.x-kubernetes-preserve-unknown-fields`, false, 'must be true or undefined'));
  if (node['uniqueItems'] === true)
    errors.push(forbidden(`${path}.uniqueItems`, 'uniqueItems cannot be set to true since the runtime complexity becomes quadratic'));
  if (node['additionalProperties'] === false) errors.push(forbidden(`${path}.additionalProperties`, 'additionalProperties cannot be set to false'));
  if (node['properties'] !== undefined && isObject(node['additionalProperties'])) {
    errors.push(forbidden(`${path}.additionalProperties`, 'additionalProperties and properties are mutual exclusive'));
  }
  if (typeof node['pattern'] === 'string' && !patternOf(node['pattern']))
    errors.push(invalid(`${path}.pattern`, node['pattern'], 'must be a valid regular expression'));
  if (type === 'array' && !isObject(node['items'])) errors.push(required(`${path}.items`, 'must be specified'));
  if (Array.isArray(node['items'])) errors.push(forbidden(`${path}.items`, 'items must be a schema object and not an array'));
  checkChildren(node, path, errors);
  for (const key of COMBINATORS) {
    const list = node[key];
    if (Array.isArray(list)) list.forEach((sub, i) => isObject(sub) && checkValueValidation(sub, `${path}.${key}[${i}]`, errors));
  }
  if (isObject(node['not'])) checkValueValidation(node['not'], `${path}.not`, errors);
  if (node['default'] !== undefined) checkDefault(node, path, errors);
  checkRuleSyntax(node, path, errors);
}

/** Each x-kubernetes-validations rule (and messageExpression) must compile, as Kubernetes compiles them on write. */
function checkRuleSyntax(node: SchemaNode, path: string, errors: FieldError[]): void {
  const rules = node['x-kubernetes-validations'];
  if (rules === undefined) return;
  if (!Array.isArray(rules)) {
    errors.push(invalid(`${path}.x-kubernetes-validations`, rules, 'must be a list of rules'));
    return;
  }
  rules.forEach((rule: unknown, i) => {
    const at = `${path}.x-kubernetes-validations[${i}]`;
    if (!isObject(rule) || typeof rule['rule'] !== 'string' || rule['rule'].trim() === '') {
      errors.push(required(`${at}.rule`));
      return;
    }
    for (const key of ['rule', 'messageExpression'] as const) {
      if (typeof rule[key] !== 'string') continue;
      try {
        compileRule(rule[key]);
      } catch (error) {
        errors.push(invalid(`${at}.${key}`, rule[key], `compilation failed: ${(error as Error).message}`));
      }
    }
  });
}

function checkChildren(node: SchemaNode, path: string, errors: FieldError[]): void {
  const properties = child(node, 'properties');
  if (properties) {
    for (const [name, sub] of Object.entries(properties)) {
      if (isObject(sub)) checkNode(sub, `${path}.properties[${name}]`, 'property', errors);
    }
  }
  const items = child(node, 'items');
  if (items) checkNode(items, `${path}.items`, 'items', errors);
  const additional = child(node, 'additionalProperties');
  if (additional) checkNode(additional, `${path}.additionalProperties`, 'additionalProperties', errors);
}

function checkValueValidation(node: SchemaNode, path: string, errors: FieldError[]): void {
  for (const key of NOT_IN_VALUE_VALIDATION) {
    if (node[key] !== undefined) errors.push(forbidden(`${path}.${key}`, 'must be empty to be structural'));
  }
  for (const key of UNSUPPORTED) if (node[key] !== undefined) errors.push(forbidden(`${path}.${key}`, `${key} is not supported`));
  const properties = child(node, 'properties');
  if (properties) for (const [name, sub] of Object.entries(properties)) if (isObject(sub)) checkValueValidation(sub, `${path}.properties[${name}]`, errors);
  const items = child(node, 'items');
  if (items) checkValueValidation(items, `${path}.items`, errors);
  for (const key of COMBINATORS) {
    const list = node[key];
    if (Array.isArray(list)) list.forEach((sub, i) => isObject(sub) && checkValueValidation(sub, `${path}.${key}[${i}]`, errors));
  }
  if (isObject(node['not'])) checkValueValidation(node['not'], `${path}.not`, errors);
}

/** A default must survive pruning unchanged and pass the node's own validation. */
function checkDefault(node: SchemaNode, path: string, errors: FieldError[]): void {
  const value = structuredClone(node['default']);
  const unknown = prune(node, value, '', false);
  if (unknown.length > 0) errors.push(invalid(`${path}.default`, node['default'], `must not have unknown fields: ${unknown.join(', ')}`));
  for (const error of validateValue(node, value, `${path}.default`)) errors.push(error);
}
