// Request bodies captured from the real kubectl v1.32 (a throwaway HTTP server recorded the
// protobuf it POSTed), each with the object kubectl prints for the same command with
// `--dry-run=client -o json`. Used by index.test.ts; not part of the server.
import type { KubectlFixture } from './fixture.js';

export const KUBECTL_CREATE_FIXTURES: readonly KubectlFixture[] = [
  {
    name: 'namespace',
    command: 'kubectl create namespace team',
    protobufHex: '6b3873000a0f0a02763112094e616d657370616365121c0a140a047465616d12001a0022002a0032003800420012001a020a' + '001a002200',
    json: { kind: 'Namespace', apiVersion: 'v1', metadata: { name: 'team', creationTimestamp: null }, spec: {}, status: {} },
  },
  {
    name: 'configmap',
    command: 'kubectl create configmap cfg --from-literal=a=b -n default',
    protobufHex: '6b3873000a0f0a0276311209436f6e6669674d617012240a1a0a0363666712001a0764656661756c7422002a003200380042' + '0012060a01611201621a002200',
    json: { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'cfg', namespace: 'default', creationTimestamp: null }, data: { a: 'b' } },
  },
  {
    name: 'configmap-files',
    command: 'kubectl create configmap files --from-file=bin.dat --from-file=text.txt --from-literal=x=',
    protobufHex:
      '6b3873000a0f0a0276311209436f6e6669674d617012ed020a150a0566696c657312001a0022002a0032003800420012120a' +
      '08746578742e747874120668656c6c6f0a12050a017812001ab8020a0762696e2e64617412ac0229b01be6198478568408e1' +
      '1cfa910498bd9bbc211573fc13722552684effe217b5bee96d768b049cfdb3017c90db553791a40c5980f1cc86f1c90312e0' +
      '398feb65585fd1716e820aa93c7d7d70e9e83373aca94f5309ae2819c2afa5ecc493d23fb1ee449570d375524c97fc22285d' +
      '028b1e07319c4ca3261bb79febc208222b578535e45550f66cf11765460b8a6756f18d3087f7f686921960d36d4fe4f4b7f6' +
      '4b752ea1f554e1b9b105d2f1712fede8353bae72eb28ee57e82edb857e922737cee872b62a440af1fbc293d9388802fbacbb' +
      '45da80402d2d88df8ff00b8390a25de0df29fec4af3cb5b04929ff478ebdc084cf0e4b47804ec5cfdc5fb28d3b5e5761dda4' +
      '08fad3e5f396e4dd54c5a2c58131dd260fb520c884e914cd3b67da443d69a2ba3c8b9a7f8347e41a002200',
    json: {
      kind: 'ConfigMap',
      apiVersion: 'v1',
      metadata: { name: 'files', creationTimestamp: null },
      data: { 'text.txt': 'hello\n', x: '' },
      binaryData: {
        'bin.dat':
          'KbAb5hmEeFaECOEc+pEEmL2bvCEVc/wTciVSaE7/4he1vultdosEnP2zAXyQ21U3kaQMWYDxzIbxyQMS4DmP62VYX9FxboIKqTx9fXDp6DNzrKlPUwmuKBnCr6XsxJPSP7HuRJVw03VSTJf8IihdAoseBzGcTKMmG7ef68IIIitXhTXkVVD2bPEXZUYLimdW8Y0wh/f2hpIZYNNtT+T0t/ZLdS6h9VThubEF0vFxL+3oNTuucuso7lfoLtuFfpInN87ocrYqRArx+8KT2TiIAvusu0XagEAtLYjfj/ALg5CiXeDfKf7Erzy1sEkp/0eOvcCEzw5LR4BOxc/cX7KNO15XYd2kCPrT5fOW5N1UxaLFgTHdJg+1IMiE6RTNO2faRD1poro8i5p/g0fk',
      },
    },
  },
  {
    name: 'secret',
    command: 'kubectl create secret generic s --from-literal=p=q',
    protobufHex: '6b3873000a0c0a0276311206536563726574121d0a110a017312001a0022002a0032003800420012060a01701201711a001a' + '002200',
    json: { kind: 'Secret', apiVersion: 'v1', metadata: { name: 's', creationTimestamp: null }, data: { p: 'cQ==' } },
  },
  {
    name: 'secret-typed',
    command: 'kubectl create secret generic st --type=example.com/t --from-file=bin.dat --from-literal=empty=',
    protobufHex:
      '6b3873000a0c0a027631120653656372657412e9020a120a02737412001a0022002a0032003800420012b8020a0762696e2e' +
      '64617412ac0229b01be6198478568408e11cfa910498bd9bbc211573fc13722552684effe217b5bee96d768b049cfdb3017c' +
      '90db553791a40c5980f1cc86f1c90312e0398feb65585fd1716e820aa93c7d7d70e9e83373aca94f5309ae2819c2afa5ecc4' +
      '93d23fb1ee449570d375524c97fc22285d028b1e07319c4ca3261bb79febc208222b578535e45550f66cf11765460b8a6756' +
      'f18d3087f7f686921960d36d4fe4f4b7f64b752ea1f554e1b9b105d2f1712fede8353bae72eb28ee57e82edb857e922737ce' +
      'e872b62a440af1fbc293d9388802fbacbb45da80402d2d88df8ff00b8390a25de0df29fec4af3cb5b04929ff478ebdc084cf' +
      '0e4b47804ec5cfdc5fb28d3b5e5761dda408fad3e5f396e4dd54c5a2c58131dd260fb520c884e914cd3b67da443d69a2ba3c' +
      '8b9a7f8347e412090a05656d70747912001a0d6578616d706c652e636f6d2f741a002200',
    json: {
      kind: 'Secret',
      apiVersion: 'v1',
      metadata: { name: 'st', creationTimestamp: null },
      data: {
        'bin.dat':
          'KbAb5hmEeFaECOEc+pEEmL2bvCEVc/wTciVSaE7/4he1vultdosEnP2zAXyQ21U3kaQMWYDxzIbxyQMS4DmP62VYX9FxboIKqTx9fXDp6DNzrKlPUwmuKBnCr6XsxJPSP7HuRJVw03VSTJf8IihdAoseBzGcTKMmG7ef68IIIitXhTXkVVD2bPEXZUYLimdW8Y0wh/f2hpIZYNNtT+T0t/ZLdS6h9VThubEF0vFxL+3oNTuucuso7lfoLtuFfpInN87ocrYqRArx+8KT2TiIAvusu0XagEAtLYjfj/ALg5CiXeDfKf7Erzy1sEkp/0eOvcCEzw5LR4BOxc/cX7KNO15XYd2kCPrT5fOW5N1UxaLFgTHdJg+1IMiE6RTNO2faRD1poro8i5p/g0fk',
        empty: '',
      },
      type: 'example.com/t',
    },
  },
  {
    name: 'secret-docker',
    command: 'kubectl create secret docker-registry reg --docker-server=r.io --docker-username=u --docker-password=p --docker-email=e@x.io',
    protobufHex:
      '6b3873000a0c0a0276311206536563726574129d010a130a0372656712001a0022002a0032003800420012660a112e646f63' +
      '6b6572636f6e6669676a736f6e12517b226175746873223a7b22722e696f223a7b22757365726e616d65223a2275222c2270' +
      '617373776f7264223a2270222c22656d61696c223a226540782e696f222c2261757468223a2264547077227d7d7d1a1e6b75' +
      '6265726e657465732e696f2f646f636b6572636f6e6669676a736f6e1a002200',
    json: {
      kind: 'Secret',
      apiVersion: 'v1',
      metadata: { name: 'reg', creationTimestamp: null },
      data: { '.dockerconfigjson': 'eyJhdXRocyI6eyJyLmlvIjp7InVzZXJuYW1lIjoidSIsInBhc3N3b3JkIjoicCIsImVtYWlsIjoiZUB4LmlvIiwiYXV0aCI6ImRUcHcifX19' },
      type: 'kubernetes.io/dockerconfigjson',
    },
  },
  {
    name: 'deployment',
    command: 'kubectl create deployment web --image=nginx:1 --replicas=3 --port=80',
    protobufHex:
      '6b3873000a150a07617070732f7631120a4465706c6f796d656e7412ba010a1f0a0377656212001a0022002a003200380042' +
      '005a0a0a0361707012037765621288010803120c0a0a0a0361707012037765621a6e0a1c0a0012001a0022002a0032003800' +
      '42005a0a0a036170701203776562124e12300a056e67696e7812076e67696e783a312a00320a0a001000185022002a004200' +
      '6a007200800100880100900100a201001a00320042004a0052005800600068008201008a01009a0100c2010022020a002800' +
      '38001a0c0800100018002000280038001a002200',
    json: {
      kind: 'Deployment',
      apiVersion: 'apps/v1',
      metadata: { name: 'web', creationTimestamp: null, labels: { app: 'web' } },
      spec: {
        replicas: 3,
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { creationTimestamp: null, labels: { app: 'web' } },
          spec: { containers: [{ name: 'nginx', image: 'nginx:1', ports: [{ containerPort: 80 }], resources: {} }] },
        },
        strategy: {},
      },
      status: {},
    },
  },
  {
    name: 'deployment-multi',
    command: 'kubectl create deployment multi --image=nginx:1 --image=redis:7 --replicas=0',
    protobufHex:
      '6b3873000a150a07617070732f7631120a4465706c6f796d656e7412dd010a230a056d756c746912001a0022002a00320038' +
      '0042005a0c0a0361707012056d756c746912a7010800120e0a0c0a0361707012056d756c74691a8a010a1e0a0012001a0022' +
      '002a003200380042005a0c0a0361707012056d756c7469126812240a056e67696e7812076e67696e783a312a0042006a0072' +
      '00800100880100900100a2010012240a057265646973120772656469733a372a0042006a007200800100880100900100a201' +
      '001a00320042004a0052005800600068008201008a01009a0100c2010022020a00280038001a0c0800100018002000280038' +
      '001a002200',
    json: {
      kind: 'Deployment',
      apiVersion: 'apps/v1',
      metadata: { name: 'multi', creationTimestamp: null, labels: { app: 'multi' } },
      spec: {
        replicas: 0,
        selector: { matchLabels: { app: 'multi' } },
        template: {
          metadata: { creationTimestamp: null, labels: { app: 'multi' } },
          spec: {
            containers: [
              { name: 'nginx', image: 'nginx:1', resources: {} },
              { name: 'redis', image: 'redis:7', resources: {} },
            ],
          },
        },
        strategy: {},
      },
      status: {},
    },
  },
  {
    name: 'job',
    command: 'kubectl create job j --image=busybox:1 -- echo hi',
    protobufHex:
      '6b3873000a0f0a0862617463682f763112034a6f621284010a110a016a12001a0022002a00320038004200126532630a100a' +
      '0012001a0022002a00320038004200124f122c0a016a120962757379626f783a311a046563686f1a0268692a0042006a0072' +
      '00800100880100900100a201001a054e65766572320042004a0052005800600068008201008a01009a0100c201001a082000' +
      '280030003a001a002200',
    json: {
      kind: 'Job',
      apiVersion: 'batch/v1',
      metadata: { name: 'j', creationTimestamp: null },
      spec: {
        template: {
          metadata: { creationTimestamp: null },
          spec: { containers: [{ name: 'j', image: 'busybox:1', command: ['echo', 'hi'], resources: {} }], restartPolicy: 'Never' },
        },
      },
      status: {},
    },
  },
  {
    name: 'cronjob',
    command: 'kubectl create cronjob cj --image=busybox:1 --schedule=@hourly --restart=OnFailure -- date',
    protobufHex:
      '6b3873000a130a0862617463682f7631120743726f6e4a6f6212a2010a120a02636a12001a0022002a003200380042001289' +
      '010a0740686f75726c791a002a7c0a120a02636a12001a0022002a00320038004200126632640a100a0012001a0022002a00' +
      '320038004200125012290a02636a120962757379626f783a311a04646174652a0042006a007200800100880100900100a201' +
      '001a094f6e4661696c757265320042004a0052005800600068008201008a01009a0100c201001a001a002200',
    json: {
      kind: 'CronJob',
      apiVersion: 'batch/v1',
      metadata: { name: 'cj', creationTimestamp: null },
      spec: {
        schedule: '@hourly',
        jobTemplate: {
          metadata: { name: 'cj', creationTimestamp: null },
          spec: {
            template: {
              metadata: { creationTimestamp: null },
              spec: { containers: [{ name: 'cj', image: 'busybox:1', command: ['date'], resources: {} }], restartPolicy: 'OnFailure' },
            },
          },
        },
      },
      status: {},
    },
  },
  {
    name: 'serviceaccount',
    command: 'kubectl create serviceaccount sa',
    protobufHex: '6b3873000a140a027631120e536572766963654163636f756e7412140a120a02736112001a0022002a003200380042001a00' + '2200',
    json: { kind: 'ServiceAccount', apiVersion: 'v1', metadata: { name: 'sa', creationTimestamp: null } },
  },
  {
    name: 'service-clusterip',
    command: 'kubectl create service clusterip svc --tcp=80:8080',
    protobufHex:
      '6b3873000a0d0a02763112075365727669636512690a1f0a0373766312001a0022002a003200380042005a0a0a0361707012' +
      '0373766312420a1b0a0738302d38303830120354435018502207080010903f1a002800120a0a0361707012037376631a0022' +
      '09436c757374657249503a00420052005a00600068001a020a001a002200',
    json: {
      kind: 'Service',
      apiVersion: 'v1',
      metadata: { name: 'svc', creationTimestamp: null, labels: { app: 'svc' } },
      spec: { ports: [{ name: '80-8080', protocol: 'TCP', port: 80, targetPort: 8080 }], selector: { app: 'svc' }, type: 'ClusterIP' },
      status: { loadBalancer: {} },
    },
  },
  {
    name: 'service-clusterip-none',
    command: 'kubectl create service clusterip headless --clusterip=None',
    protobufHex:
      '6b3873000a0d0a027631120753657276696365125f0a290a08686561646c65737312001a0022002a003200380042005a0f0a' +
      '036170701208686561646c657373122e120f0a036170701208686561646c6573731a044e6f6e652209436c75737465724950' +
      '3a00420052005a00600068001a020a001a002200',
    json: {
      kind: 'Service',
      apiVersion: 'v1',
      metadata: { name: 'headless', creationTimestamp: null, labels: { app: 'headless' } },
      spec: { selector: { app: 'headless' }, clusterIP: 'None', type: 'ClusterIP' },
      status: { loadBalancer: {} },
    },
  },
  {
    name: 'service-nodeport',
    command: 'kubectl create service nodeport np --tcp=5678:8080 --node-port=30080',
    protobufHex:
      '6b3873000a0d0a027631120753657276696365126a0a1d0a026e7012001a0022002a003200380042005a090a036170701202' +
      '6e7012450a200a09353637382d38303830120354435018ae2c2207080010903f1a002880eb0112090a0361707012026e701a' +
      '0022084e6f6465506f72743a00420052005a00600068001a020a001a002200',
    json: {
      kind: 'Service',
      apiVersion: 'v1',
      metadata: { name: 'np', creationTimestamp: null, labels: { app: 'np' } },
      spec: { ports: [{ name: '5678-8080', protocol: 'TCP', port: 5678, targetPort: 8080, nodePort: 30080 }], selector: { app: 'np' }, type: 'NodePort' },
      status: { loadBalancer: {} },
    },
  },
  {
    name: 'service-loadbalancer',
    command: 'kubectl create service loadbalancer lb --tcp=5678:8080 --tcp=443',
    protobufHex:
      '6b3873000a0d0a0276311207536572766963651286010a1d0a026c6212001a0022002a003200380042005a090a0361707012' +
      '026c6212610a1e0a09353637382d38303830120354435018ae2c2207080010903f1a0028000a180a03343433120354435018' +
      'bb032207080010bb031a00280012090a0361707012026c621a00220c4c6f616442616c616e6365723a00420052005a006000' +
      '68001a020a001a002200',
    json: {
      kind: 'Service',
      apiVersion: 'v1',
      metadata: { name: 'lb', creationTimestamp: null, labels: { app: 'lb' } },
      spec: {
        ports: [
          { name: '5678-8080', protocol: 'TCP', port: 5678, targetPort: 8080 },
          { name: '443', protocol: 'TCP', port: 443, targetPort: 443 },
        ],
        selector: { app: 'lb' },
        type: 'LoadBalancer',
      },
      status: { loadBalancer: {} },
    },
  },
  {
    name: 'service-externalname',
    command: 'kubectl create service externalname en --external-name=bar.com',
    protobufHex:
      '6b3873000a0d0a02763112075365727669636512530a1d0a02656e12001a0022002a003200380042005a090a036170701202' +
      '656e122e12090a036170701202656e1a00220c45787465726e616c4e616d653a00420052076261722e636f6d5a0060006800' +
      '1a020a001a002200',
    json: {
      kind: 'Service',
      apiVersion: 'v1',
      metadata: { name: 'en', creationTimestamp: null, labels: { app: 'en' } },
      spec: { selector: { app: 'en' }, type: 'ExternalName', externalName: 'bar.com' },
      status: { loadBalancer: {} },
    },
  },
  {
    name: 'quota',
    command: 'kubectl create quota q --hard=cpu=1,memory=1G,pods=2 --scopes=BestEffort',
    protobufHex:
      '6b3873000a130a027631120d5265736f7572636551756f7461124c0a110a017112001a0022002a0032003800420012350a0a' +
      '0a0363707512030a01310a0e0a066d656d6f727912040a0231470a0b0a04706f647312030a0132120a426573744566666f72' +
      '741a001a002200',
    json: {
      kind: 'ResourceQuota',
      apiVersion: 'v1',
      metadata: { name: 'q', creationTimestamp: null },
      spec: { hard: { cpu: '1', memory: '1G', pods: '2' }, scopes: ['BestEffort'] },
      status: {},
    },
  },
  {
    name: 'priorityclass',
    command: 'kubectl create priorityclass pc --value=1000 --global-default=true --description=high --preemption-policy=Never',
    protobufHex:
      '6b3873000a250a147363686564756c696e672e6b38732e696f2f7631120d5072696f72697479436c61737312260a120a0270' +
      '6312001a0022002a0032003800420010e80718012204686967682a054e657665721a002200',
    json: {
      kind: 'PriorityClass',
      apiVersion: 'scheduling.k8s.io/v1',
      metadata: { name: 'pc', creationTimestamp: null },
      value: 1000,
      globalDefault: true,
      description: 'high',
      preemptionPolicy: 'Never',
    },
  },
  {
    name: 'role',
    command: 'kubectl create role r --verb=get,list --resource=pods,deployments.apps --resource-name=a',
    protobufHex:
      '6b3873000a240a1c726261632e617574686f72697a6174696f6e2e6b38732e696f2f76311204526f6c65124e0a110a017212' +
      '001a0022002a0032003800420012160a036765740a046c69737412001a04706f647322016112210a036765740a046c697374' +
      '1204617070731a0b6465706c6f796d656e74732201611a002200',
    json: {
      kind: 'Role',
      apiVersion: 'rbac.authorization.k8s.io/v1',
      metadata: { name: 'r', creationTimestamp: null },
      rules: [
        { verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'], resourceNames: ['a'] },
        { verbs: ['get', 'list'], apiGroups: ['apps'], resources: ['deployments'], resourceNames: ['a'] },
      ],
    },
  },
  {
    name: 'clusterrole',
    command: 'kubectl create clusterrole cr --verb=get --non-resource-url=/logs/*',
    protobufHex:
      '6b3873000a2b0a1c726261632e617574686f72697a6174696f6e2e6b38732e696f2f7631120b436c7573746572526f6c6512' +
      '240a120a02637212001a0022002a00320038004200120e0a036765742a072f6c6f67732f2a1a002200',
    json: {
      kind: 'ClusterRole',
      apiVersion: 'rbac.authorization.k8s.io/v1',
      metadata: { name: 'cr', creationTimestamp: null },
      rules: [{ verbs: ['get'], nonResourceURLs: ['/logs/*'] }],
    },
  },
  {
    name: 'clusterrole-agg',
    command: 'kubectl create clusterrole agg --aggregation-rule=rbac.example.com/aggregate=true',
    protobufHex:
      '6b3873000a2b0a1c726261632e617574686f72697a6174696f6e2e6b38732e696f2f7631120b436c7573746572526f6c6512' +
      '3d0a130a0361676712001a0022002a003200380042001a260a240a220a1a726261632e6578616d706c652e636f6d2f616767' +
      '7265676174651204747275651a002200',
    json: {
      kind: 'ClusterRole',
      apiVersion: 'rbac.authorization.k8s.io/v1',
      metadata: { name: 'agg', creationTimestamp: null },
      rules: null,
      aggregationRule: { clusterRoleSelectors: [{ matchLabels: { 'rbac.example.com/aggregate': 'true' } }] },
    },
  },
  {
    name: 'rolebinding',
    command: 'kubectl create rolebinding rb --role=r --user=u --group=g --serviceaccount=default:sa',
    protobufHex:
      '6b3873000a2b0a1c726261632e617574686f72697a6174696f6e2e6b38732e696f2f7631120b526f6c6542696e64696e6712' +
      'ac010a120a02726212001a0022002a0032003800420012260a04557365721219726261632e617574686f72697a6174696f6e' +
      '2e6b38732e696f1a0175220012270a0547726f75701219726261632e617574686f72697a6174696f6e2e6b38732e696f1a01' +
      '672200121f0a0e536572766963654163636f756e7412001a027361220764656661756c741a240a19726261632e617574686f' +
      '72697a6174696f6e2e6b38732e696f1204526f6c651a01721a002200',
    json: {
      kind: 'RoleBinding',
      apiVersion: 'rbac.authorization.k8s.io/v1',
      metadata: { name: 'rb', creationTimestamp: null },
      subjects: [
        { kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'u' },
        { kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'g' },
        { kind: 'ServiceAccount', name: 'sa', namespace: 'default' },
      ],
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'r' },
    },
  },
  {
    name: 'clusterrolebinding',
    command: 'kubectl create clusterrolebinding crb --clusterrole=cr --user=u',
    protobufHex:
      '6b3873000a320a1c726261632e617574686f72697a6174696f6e2e6b38732e696f2f76311212436c7573746572526f6c6542' +
      '696e64696e67126b0a130a0363726212001a0022002a0032003800420012260a04557365721219726261632e617574686f72' +
      '697a6174696f6e2e6b38732e696f1a017522001a2c0a19726261632e617574686f72697a6174696f6e2e6b38732e696f120b' +
      '436c7573746572526f6c651a0263721a002200',
    json: {
      kind: 'ClusterRoleBinding',
      apiVersion: 'rbac.authorization.k8s.io/v1',
      metadata: { name: 'crb', creationTimestamp: null },
      subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'u' }],
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cr' },
    },
  },
  {
    name: 'pdb',
    command: 'kubectl create pdb pdb --selector=app=web --min-available=1',
    protobufHex:
      '6b3873000a200a09706f6c6963792f76311213506f6444697372757074696f6e42756467657412390a130a0370646212001a' +
      '0022002a0032003800420012160a06080010011a00120c0a0a0a0361707012037765621a0a080018002000280030001a0022' +
      '00',
    json: {
      kind: 'PodDisruptionBudget',
      apiVersion: 'policy/v1',
      metadata: { name: 'pdb', creationTimestamp: null },
      spec: { minAvailable: 1, selector: { matchLabels: { app: 'web' } } },
      status: { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 },
    },
  },
  {
    name: 'pdb-percent',
    command: 'kubectl create pdb pdb2 --selector=app=web --max-unavailable=50%',
    protobufHex:
      '6b3873000a200a09706f6c6963792f76311213506f6444697372757074696f6e427564676574123d0a140a04706462321200' +
      '1a0022002a003200380042001219120c0a0a0a0361707012037765621a09080110001a033530251a0a080018002000280030' +
      '001a002200',
    json: {
      kind: 'PodDisruptionBudget',
      apiVersion: 'policy/v1',
      metadata: { name: 'pdb2', creationTimestamp: null },
      spec: { selector: { matchLabels: { app: 'web' } }, maxUnavailable: '50%' },
      status: { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 },
    },
  },
  {
    name: 'ingress',
    command: 'kubectl create ingress ing --rule=foo.com/bar=svc1:8080 --rule=tls.com/*=svc2:http,tls=my-cert --class=nginx --annotation=a=b',
    protobufHex:
      '6b3873000a1f0a146e6574776f726b696e672e6b38732e696f2f76311207496e6772657373129d010a1b0a03696e6712001a' +
      '0022002a0032003800420062060a0161120162127a12120a07746c732e636f6d12076d792d636572741a2d0a07666f6f2e63' +
      '6f6d12220a200a1e0a042f626172120f220d0a047376633112050a0010903f1a0545786163741a2e0a07746c732e636f6d12' +
      '230a210a1f0a012f121222100a047376633212080a046874747010001a0650726566697822056e67696e781a020a001a0022' +
      '00',
    json: {
      kind: 'Ingress',
      apiVersion: 'networking.k8s.io/v1',
      metadata: { name: 'ing', creationTimestamp: null, annotations: { a: 'b' } },
      spec: {
        ingressClassName: 'nginx',
        tls: [{ hosts: ['tls.com'], secretName: 'my-cert' }],
        rules: [
          { host: 'foo.com', http: { paths: [{ path: '/bar', pathType: 'Exact', backend: { service: { name: 'svc1', port: { number: 8080 } } } }] } },
          { host: 'tls.com', http: { paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name: 'svc2', port: { name: 'http' } } } }] } },
        ],
      },
      status: { loadBalancer: {} },
    },
  },
  {
    name: 'token',
    command: 'kubectl create token sa --audience=x --duration=1h --bound-object-kind=Pod --bound-object-name=p1 --bound-object-uid=u1',
    // create token has no --dry-run; this is the TokenRequest as encoding/json writes it.
    protobufHex:
      '6b3873000a280a1861757468656e7469636174696f6e2e6b38732e696f2f7631120c546f6b656e5265717565737412330a10' +
      '0a0012001a0022002a0032003800420012190a01781a110a03506f64120276311a0270312202753120901c1a040a0012001a' +
      '002200',
    json: {
      kind: 'TokenRequest',
      apiVersion: 'authentication.k8s.io/v1',
      metadata: { creationTimestamp: null },
      spec: { audiences: ['x'], expirationSeconds: 3600, boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'p1', uid: 'u1' } },
      status: { token: '', expirationTimestamp: null },
    },
  },
];
