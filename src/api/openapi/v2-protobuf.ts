// Encodes the swagger 2.0 document as gnostic's openapi_v2.Document protobuf, the only form
// kubectl accepts from /openapi/v2. kubectl falls back to it for client-side validation (e.g.
// `kubectl apply -f` of a `kind: List`) and `kubectl explain --output plaintext-openapiv2`.
// Field numbers are those of gnostic's OpenAPIv2.proto.
import { isObject } from '../meta.js';
import { ProtoWriter } from './proto-writer.js';

type Node = Record<string, unknown>;

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/** gnostic's Any: arbitrary values travel as YAML text (JSON is valid YAML). */
function any(writer: ProtoWriter, field: number, value: unknown): void {
  writer.message(field, (a) => a.string(2, JSON.stringify(value)));
}

function vendorExtensions(writer: ProtoWriter, field: number, node: Node): void {
  for (const [key, value] of Object.entries(node)) {
    if (key.startsWith('x-'))
      writer.message(field, (named) => {
        named.string(1, key);
        any(named, 2, value);
      });
  }
}

function writeSchema(w: ProtoWriter, schema: Node): void {
  w.string(1, text(schema['$ref'])).string(2, text(schema['format'])).string(3, text(schema['title'])).string(4, text(schema['description']));
  if (schema['default'] !== undefined) any(w, 5, schema['default']);
  if (typeof schema['maximum'] === 'number') w.double(7, schema['maximum']);
  if (typeof schema['minimum'] === 'number') w.double(9, schema['minimum']);
  w.bool(16, schema['uniqueItems'] === true);
  w.strings(19, stringList(schema['required']));
  if (Array.isArray(schema['enum'])) for (const value of schema['enum']) any(w, 20, value);
  const additional = schema['additionalProperties'];
  if (isObject(additional)) w.message(21, (a) => a.message(1, (s) => writeSchema(s, additional)));
  else if (typeof additional === 'boolean') w.message(21, (a) => a.bool(2, additional));
  if (typeof schema['type'] === 'string') w.message(22, (t) => t.string(1, schema['type'] as string));
  const items = schema['items'];
  if (isObject(items)) w.message(23, (i) => i.message(1, (s) => writeSchema(s, items)));
  if (Array.isArray(schema['allOf'])) for (const part of schema['allOf'].filter(isObject)) w.message(24, (s) => writeSchema(s, part));
  const properties = schema['properties'];
  if (isObject(properties)) {
    w.message(25, (p) => {
      for (const [name, child] of Object.entries(properties)) {
        if (isObject(child)) p.message(1, (named) => named.string(1, name).message(2, (s) => writeSchema(s, child)));
      }
    });
  }
  vendorExtensions(w, 31, schema);
}

function writeParameter(w: ProtoWriter, parameter: Node): void {
  w.message(1, (p) => {
    if (parameter['in'] === 'body') {
      p.message(1, (body) => {
        body
          .string(1, text(parameter['description']))
          .string(2, text(parameter['name']))
          .string(3, 'body')
          .bool(4, parameter['required'] === true);
        if (isObject(parameter['schema'])) body.message(5, (s) => writeSchema(s, parameter['schema'] as Node));
      });
      return;
    }
    const inPath = parameter['in'] === 'path';
    p.message(2, (nonBody) =>
      nonBody.message(inPath ? 4 : 3, (sub) => {
        sub
          .bool(1, parameter['required'] === true)
          .string(2, text(parameter['in']))
          .string(3, text(parameter['description']))
          .string(4, text(parameter['name']));
        sub.string(inPath ? 5 : 6, text(parameter['type'])).bool(inPath ? 19 : 20, parameter['uniqueItems'] === true);
      }),
    );
  });
}

function writeResponses(w: ProtoWriter, responses: Node): void {
  for (const [code, response] of Object.entries(responses)) {
    if (!isObject(response)) continue;
    w.message(1, (named) =>
      named.string(1, code).message(2, (value) =>
        value.message(1, (r) => {
          r.string(1, text(response['description']));
          if (isObject(response['schema'])) r.message(2, (item) => item.message(1, (s) => writeSchema(s, response['schema'] as Node)));
        }),
      ),
    );
  }
}

function writeOperation(w: ProtoWriter, op: Node): void {
  w.strings(1, stringList(op['tags'])).string(3, text(op['description'])).string(5, text(op['operationId']));
  w.strings(6, stringList(op['produces'])).strings(7, stringList(op['consumes']));
  if (Array.isArray(op['parameters'])) for (const parameter of op['parameters'].filter(isObject)) w.message(8, (item) => writeParameter(item, parameter));
  if (isObject(op['responses'])) w.message(9, (r) => writeResponses(r, op['responses'] as Node));
  w.strings(10, stringList(op['schemes']));
  vendorExtensions(w, 13, op);
}

const METHOD_FIELDS: Record<string, number> = { get: 2, put: 3, post: 4, delete: 5, options: 6, head: 7, patch: 8 };

function writePathItem(w: ProtoWriter, item: Node): void {
  for (const [method, field] of Object.entries(METHOD_FIELDS)) {
    const op = item[method];
    if (isObject(op)) w.message(field, (o) => writeOperation(o, op));
  }
  if (Array.isArray(item['parameters'])) for (const parameter of item['parameters'].filter(isObject)) w.message(9, (p) => writeParameter(p, parameter));
}

function writeSecurity(w: ProtoWriter, doc: Node): void {
  for (const requirement of Array.isArray(doc['security']) ? doc['security'].filter(isObject) : []) {
    w.message(12, (req) => {
      for (const [name, scopes] of Object.entries(requirement)) req.message(1, (n) => n.string(1, name).message(2, (a) => a.strings(1, stringList(scopes))));
    });
  }
  const definitions = isObject(doc['securityDefinitions']) ? doc['securityDefinitions'] : {};
  w.message(13, (defs) => {
    for (const [name, def] of Object.entries(definitions)) {
      if (!isObject(def)) continue;
      defs.message(1, (n) =>
        n.string(1, name).message(2, (item) =>
          item.message(2, (key) => {
            key.string(1, text(def['type'])).string(2, text(def['name'])).string(3, text(def['in'])).string(4, text(def['description']));
          }),
        ),
      );
    }
  });
}

export function encodeOpenApiV2(doc: Node): Buffer {
  const w = new ProtoWriter();
  w.string(1, text(doc['swagger']));
  const info = isObject(doc['info']) ? doc['info'] : {};
  w.message(2, (i) => i.string(1, text(info['title'])).string(2, text(info['version'])));
  const paths = isObject(doc['paths']) ? doc['paths'] : {};
  w.message(8, (p) => {
    for (const [path, item] of Object.entries(paths)) {
      if (isObject(item)) p.message(2, (named) => named.string(1, path).message(2, (pi) => writePathItem(pi, item)));
    }
  });
  const definitions = isObject(doc['definitions']) ? doc['definitions'] : {};
  w.message(9, (d) => {
    for (const [name, schema] of Object.entries(definitions)) {
      if (isObject(schema)) d.message(1, (named) => named.string(1, name).message(2, (s) => writeSchema(s, schema)));
    }
  });
  writeSecurity(w, doc);
  return w.finish();
}
