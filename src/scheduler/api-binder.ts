// The default bind plugin: POST pods/{name}/binding, as kube-scheduler's DefaultBinder does.
import type { KubeObject } from '../api/meta.js';
import { resources, type ApiClient } from '../client/index.js';
import type { Plugin } from './plugin.js';
import { SUCCESS } from './status.js';

export function apiBinder(api: ApiClient): Plugin {
  return {
    name: 'DefaultBinder',
    async bind(pod: KubeObject, nodeName: string) {
      const { name, namespace, uid } = pod.metadata;
      const binding = { apiVersion: 'v1', kind: 'Binding', metadata: { name, namespace, uid }, target: { apiVersion: 'v1', kind: 'Node', name: nodeName } };
      await api.resource(resources.pods, namespace).createSubresource(name!, 'binding', binding);
      return SUCCESS;
    },
  };
}
