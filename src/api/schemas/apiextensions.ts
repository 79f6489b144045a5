// apiextensions.k8s.io/v1 CustomResourceDefinition, with Kubernetes' field names. The schema a
// version carries (JSONSchemaProps) is itself a JSON schema: it is kept whole here, and checked
// for structure by api/crd/structural.ts rather than by this schema.
import { Type } from '@sinclair/typebox';
import { bool, enumStr, field, int32, list, named, str, stringList, struct, time } from './builders.js';
import { conditionList, kindSchema } from './meta.js';

const APIEXTENSIONS = 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1';

const JSONSchemaProps = named(
  `${APIEXTENSIONS}.JSONSchemaProps`,
  Type.Unsafe({
    type: 'object',
    description: 'A JSON-Schema following Specification Draft 4 (http://json-schema.org/), in the structural form Kubernetes requires.',
    'x-kubernetes-preserve-unknown-fields': true,
  }),
);

const Names = named(
  `${APIEXTENSIONS}.CustomResourceDefinitionNames`,
  struct(
    'The names under which the custom resource is served.',
    {
      plural: str('The plural name of the resource to serve, lowercase: /apis/<group>/<version>/.../<plural>. Must match the CRD name (<plural>.<group>).'),
      singular: str('The singular name of the resource, lowercase. Defaults to the lowercased kind.'),
      shortNames: stringList('Short names for the resource, as `kubectl get <shortname>` accepts them. Lowercase.'),
      kind: str('The serialized kind of the resource, normally CamelCase and singular.'),
      listKind: str('The serialized kind of the list for this resource. Defaults to "<kind>List".'),
      categories: stringList('Grouped resources this custom resource belongs to (e.g. "all"), as `kubectl get <category>` uses them.'),
    },
    ['plural', 'kind'],
  ),
);

const Validation = named(
  `${APIEXTENSIONS}.CustomResourceValidation`,
  struct('The schema of one version of the custom resource.', {
    openAPIV3Schema: field(JSONSchemaProps, 'The OpenAPI v3 schema used for validation, pruning and defaulting.'),
  }),
);

const ScaleSpec = named(
  `${APIEXTENSIONS}.CustomResourceSubresourceScale`,
  struct(
    'Where the scale subresource reads and writes.',
    {
      specReplicasPath: str("The JSON path (.spec.x) of the desired replicas, as the scale subresource's spec.replicas."),
      statusReplicasPath: str("The JSON path (.status.x) of the observed replicas, as the scale subresource's status.replicas."),
      labelSelectorPath: str("The JSON path of the label selector (as a string) for the scale subresource's status.selector."),
    },
    ['specReplicasPath', 'statusReplicasPath'],
  ),
);

const Subresources = named(
  `${APIEXTENSIONS}.CustomResourceSubresources`,
  struct('The subresources the custom resource serves.', {
    status: field(
      Type.Unsafe({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true }),
      'Enables /status: the main resource ignores status, /status ignores all but status.',
    ),
    scale: field(ScaleSpec, 'Enables /scale, served as autoscaling/v1 Scale.'),
  }),
);

const PrinterColumn = named(
  `${APIEXTENSIONS}.CustomResourceColumnDefinition`,
  struct(
    'An extra column of `kubectl get`.',
    {
      name: str('A human readable name for the column.'),
      type: str('The OpenAPI type of the column: integer, number, string, boolean or date.'),
      format: str('An optional OpenAPI type format for the column.'),
      description: str('A human readable description of the column.'),
      priority: int32('0 for the standard view; greater numbers only with `-o wide`.'),
      jsonPath: str('A simple JSON path (with array notation) evaluated against each custom resource.'),
    },
    ['name', 'type', 'jsonPath'],
  ),
);

const SelectableField = named(
  `${APIEXTENSIONS}.SelectableField`,
  struct(
    'A field that may be used as a field selector.',
    {
      jsonPath: str('A simple JSON path to a string, integer or boolean field.'),
    },
    ['jsonPath'],
  ),
);

const Version = named(
  `${APIEXTENSIONS}.CustomResourceDefinitionVersion`,
  struct(
    'One version of the custom resource.',
    {
      name: str('The version name, e.g. "v1", "v2beta1"; served under /apis/<group>/<version>/.'),
      served: bool('Whether this version is served by the REST API.'),
      storage: bool('Whether objects are stored in this version. Exactly one version is the storage version.'),
      deprecated: bool('Whether this version is deprecated; requests to it get a warning.'),
      deprecationWarning: str('The warning returned to clients of a deprecated version.'),
      schema: field(Validation, 'The schema of this version.'),
      subresources: field(Subresources, 'The subresources this version serves.'),
      additionalPrinterColumns: list('Extra columns of `kubectl get`; without any, only AGE is added.', PrinterColumn, { 'x-kubernetes-list-type': 'atomic' }),
      selectableFields: list('Fields that may be used as field selectors.', SelectableField, { 'x-kubernetes-list-type': 'atomic' }),
    },
    ['name', 'served', 'storage'],
  ),
);

const Conversion = named(
  `${APIEXTENSIONS}.CustomResourceConversion`,
  struct(
    'How versions are converted.',
    {
      strategy: str('None (only apiVersion changes) or Webhook.'),
      webhook: field(Type.Unsafe({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true }), 'The webhook to call for conversion (Strategy Webhook).'),
    },
    ['strategy'],
  ),
);

const Spec = named(
  `${APIEXTENSIONS}.CustomResourceDefinitionSpec`,
  struct(
    'How the custom resource is served.',
    {
      group: str('The API group of the custom resource: /apis/<group>/...'),
      names: field(Names, 'The resource and kind names of the custom resource.'),
      scope: enumStr('Whether the custom resource is Cluster or Namespaced.', ['Cluster', 'Namespaced']),
      versions: list('The versions of the custom resource.', Version, { 'x-kubernetes-list-type': 'atomic' }),
      conversion: field(Conversion, 'How versions are converted.'),
      preserveUnknownFields: bool('Deprecated: must be false in apiextensions.k8s.io/v1.'),
    },
    ['group', 'names', 'scope', 'versions'],
  ),
);

const CrdCondition = named(
  `${APIEXTENSIONS}.CustomResourceDefinitionCondition`,
  struct(
    'A condition of a CustomResourceDefinition.',
    {
      type: str('Established, NamesAccepted or Terminating.'),
      status: str('True, False or Unknown.'),
      lastTransitionTime: time('When the condition last changed status.'),
      reason: str('A CamelCase reason for the last transition.'),
      message: str('A human readable message about the last transition.'),
    },
    ['type', 'status'],
  ),
);

const Status = named(
  `${APIEXTENSIONS}.CustomResourceDefinitionStatus`,
  struct('The observed state of a CustomResourceDefinition.', {
    conditions: conditionList('The observed conditions.', CrdCondition),
    acceptedNames: field(Names, 'The names actually being served; may differ from spec.names after a conflict.'),
    storedVersions: stringList('Every version objects have ever been stored in.'),
  }),
);

export const CustomResourceDefinitionSchema = kindSchema(
  { group: 'apiextensions.k8s.io', version: 'v1', kind: 'CustomResourceDefinition' },
  'A resource served by the API server whose schema the user gives: its name is <plural>.<group>.',
  {
    spec: field(Spec, 'How the custom resource is served.'),
    status: field(Status, 'The observed state of the definition.'),
  },
  ['spec'],
);
