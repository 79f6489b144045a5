// ResourceDefinitions of the core/v1 kinds.
import type { KubeObject } from '../meta.js';
import type { ResourceDefinition } from '../resource.js';
import { printerFor } from '../printers/index.js';
import { PodSchema } from '../schemas/pod.js';
import { EndpointsSchema, ServiceSchema } from '../schemas/service.js';
import { NodeSchema } from '../schemas/node.js';
import { ConfigMapSchema, EventSchema, NamespaceSchema, SecretSchema, ServiceAccountSchema } from '../schemas/core-objects.js';
import { ReplicationControllerSchema } from '../schemas/replication-controller.js';
import { applyReplicationControllerDefaults } from '../defaults/statefulset-defaults.js';
import { validateReplicationController } from '../validation/replication-controller-validation.js';
import { applyPodDefaults } from '../defaults/pod-defaults.js';
import { applyEndpointsDefaults, applyNamespaceDefaults, applyNodeDefaults, applySecretDefaults, applyServiceDefaults } from '../defaults/core-defaults.js';
import { validatePodSpec } from '../validation/pod-validation.js';
import { validatePodUpdate } from '../validation/pod-update.js';
import { validateEndpoints, validateService } from '../validation/service-validation.js';
import { validateConfigMap, validateEvent, validateNamespace, validateNode, validateSecret, validateServiceAccount } from '../validation/core-validation.js';
import { ALL_VERBS, field, fieldText, noDefaults } from './helpers.js';
import { obj } from '../validation/util.js';

function validatePod(pod: KubeObject, old?: KubeObject) {
  const errors = validatePodSpec(obj(pod['spec']), 'spec');
  if (old) errors.push(...validatePodUpdate(pod, old));
  return errors;
}

function podIP(pod: KubeObject): string {
  const status = obj(pod['status']);
  const first = Array.isArray(status['podIPs']) ? obj(status['podIPs'][0])['ip'] : undefined;
  return typeof first === 'string' ? first : fieldText(pod, 'status.podIP');
}

const pods: ResourceDefinition = {
  group: '',
  version: 'v1',
  kind: 'Pod',
  listKind: 'PodList',
  plural: 'pods',
  singular: 'pod',
  namespaced: true,
  shortNames: ['po'],
  categories: ['all'],
  verbs: ALL_VERBS,
  subresources: { status: true },
  schema: PodSchema,
  applyDefaults: applyPodDefaults,
  validate: validatePod,
  table: printerFor('Pod'),
  fieldSelectors: {
    'spec.nodeName': field('spec.nodeName'),
    'spec.restartPolicy': field('spec.restartPolicy'),
    'spec.schedulerName': field('spec.schedulerName'),
    'spec.serviceAccountName': field('spec.serviceAccountName'),
    'spec.hostNetwork': (pod) => String(obj(pod['spec'])['hostNetwork'] === true),
    'status.phase': field('status.phase'),
    'status.podIP': podIP,
    'status.nominatedNodeName': field('status.nominatedNodeName'),
  },
};

const services: ResourceDefinition = {
  group: '',
  version: 'v1',
  kind: 'Service',
  listKind: 'ServiceList',
  plural: 'services',
  singular: 'service',
  namespaced: true,
  shortNames: ['svc'],
  categories: ['all'],
  verbs: ALL_VERBS,
  subresources: { status: true },
  schema: ServiceSchema,
  applyDefaults: applyServiceDefaults,
  validate: validateService,
  table: printerFor('Service'),
  fieldSelectors: { 'spec.clusterIP': field('spec.clusterIP'), 'spec.type': field('spec.type') },
};

const endpoints: ResourceDefinition = {
  group: '',
  version: 'v1',
  kind: 'Endpoints',
  listKind: 'EndpointsList',
  plural: 'endpoints',
  singular: 'endpoints',
  namespaced: true,
  shortNames: ['ep'],
  categories: [],
  verbs: ALL_VERBS,
  subresources: {},
  schema: EndpointsSchema,
  applyDefaults: applyEndpointsDefaults,
  validate: validateEndpoints,
  table: printerFor('Endpoints'),
  fieldSelectors: {},
};

const nodes: ResourceDefinition = {
  group: '',
  version: 'v1',
  kind: 'Node',
  listKind: 'NodeList',
  plural: 'nodes',
  singular: 'node',
  namespaced: false,
  shortNames: ['no'],
  categories: [],
  verbs: ALL_VERBS,
  subresources: { status: true },
  schema: NodeSchema,
  applyDefaults: applyNodeDefaults,
  validate: validateNode,
  table: printerFor('Node'),
  fieldSelectors: { 'spec.unschedulable': (node) => String(obj(node['spec'])['unschedulable'] === true) },
};

const namespaces: ResourceDefinition = {
  group: '',
  version: 'v1',
  kind: 'Namespace',
  listKind: 'NamespaceList',
  plural: 'namespaces',
  singular: 'namespace',
  namespaced: false,
  shortNames: ['ns'],
  categories: [],
  verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
  subresources: { status: true },
  schema: NamespaceSchema,
  applyDefaults: applyNamespaceDefaults,
  validate: validateNamespace,
  table: printerFor('Namespace'),
  fieldSelectors: { 'status.phase': field('status.phase') },
};

const configMaps: ResourceDefinition = {
  group: '',
  version: 'v1',
  kind: 'ConfigMap',
  listKind: 'ConfigMapList',
  plural: 'configmaps',
  singular: 'configmap',
  namespaced: true,
  shortNames: ['cm'],
  categories: [],
  verbs: ALL_VERBS,
  subresources: {},
  schema: ConfigMapSchema,
  applyDefaults: noDefaults,
  validate: validateConfigMap,
  table: printerFor('ConfigMap'),
  fieldSelectors: {},
};

const secrets: ResourceDefinition = {
  group: '',
  version: 'v1',
  kind: 'Secret',
  listKind: 'SecretList',
  plural: 'secrets',
  singular: 'secret',
  namespaced: true,
  shortNames: [],
  categories: [],
  verbs: ALL_VERBS,
  subresources: {},
  schema: SecretSchema,
  applyDefaults: applySecretDefaults,
  validate: validateSecret,
  table: printerFor('Secret'),
  fieldSelectors: { type: (secret) => fieldText(secret, 'type') },
};

export const events: ResourceDefinition = {
  group: '',
  version: 'v1',
  kind: 'Event',
  listKind: 'EventList',
  plural: 'events',
  singular: 'event',
  namespaced: true,
  shortNames: ['ev'],
  categories: [],
  verbs: ALL_VERBS,
  subresources: {},
  schema: EventSchema,
  applyDefaults: noDefaults,
  validate: validateEvent,
  table: printerFor('Event'),
  fieldSelectors: {
    'involvedObject.kind': field('involvedObject.kind'),
    'involvedObject.namespace': field('involvedObject.namespace'),
    'involvedObject.name': field('involvedObject.name'),
    'involvedObject.uid': field('involvedObject.uid'),
    'involvedObject.apiVersion': field('involvedObject.apiVersion'),
    'involvedObject.resourceVersion': field('involvedObject.resourceVersion'),
    'involvedObject.fieldPath': field('involvedObject.fieldPath'),
    reason: field('reason'),
    reportingComponent: field('reportingComponent'),
    source: field('source.component'),
    type: field('type'),
  },
};

const serviceAccounts: ResourceDefinition = {
  group: '',
  version: 'v1',
  kind: 'ServiceAccount',
  listKind: 'ServiceAccountList',
  plural: 'serviceaccounts',
  singular: 'serviceaccount',
  namespaced: true,
  shortNames: ['sa'],
  categories: [],
  verbs: ALL_VERBS,
  subresources: {},
  schema: ServiceAccountSchema,
  applyDefaults: noDefaults,
  validate: validateServiceAccount,
  table: printerFor('ServiceAccount'),
  fieldSelectors: {},
};

const replicationControllers: ResourceDefinition = {
  group: '',
  version: 'v1',
  kind: 'ReplicationController',
  listKind: 'ReplicationControllerList',
  plural: 'replicationcontrollers',
  singular: 'replicationcontroller',
  namespaced: true,
  shortNames: ['rc'],
  categories: ['all'],
  verbs: ALL_VERBS,
  subresources: {
    status: true,
    scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.spec.selector', selectorIsMap: true },
  },
  schema: ReplicationControllerSchema,
  applyDefaults: applyReplicationControllerDefaults,
  validate: validateReplicationController,
  table: printerFor('ReplicationController'),
  fieldSelectors: { 'status.replicas': (rc) => String(obj(rc['status'])['replicas'] ?? 0) },
};

export const coreDefinitions: readonly ResourceDefinition[] = [
  pods,
  services,
  endpoints,
  nodes,
  namespaces,
  configMaps,
  secrets,
  events,
  serviceAccounts,
  replicationControllers,
];
