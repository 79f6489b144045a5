// More real kubectl v1.32 request bodies: a Job copied from a CronJob whose pod template uses
// most PodSpec fields (the throwaway server answered GET with /tmp's rich CronJob), DeleteOptions
// from `kubectl drain --disable-eviction`, and the Pod `kubectl debug node/...` creates.
import type { KubectlFixture } from './fixture.js';

export const KUBECTL_OTHER_FIXTURES: readonly KubectlFixture[] = [
  {
    name: 'job-from-cronjob',
    command: 'kubectl create job rich-run --from=cronjob/rich',
    protobufHex:
      '6b3873000a0f0a0862617463682f763112034a6f6212c1100aa5010a08726963682d72756e12001a0022002a003200380042' +
      '005a0d0a047465616d1205696e6672615a080a04746965721200622b0a2163726f6e6a6f622e6b756265726e657465732e69' +
      '6f2f696e7374616e746961746512066d616e75616c62090a05656d707479120062130a046e6f7465120b68656c6c6f20776f' +
      '726c646a250a0743726f6e4a6f621a04726963682208636a2d7569642d312a0862617463682f76313001128c0f0802100318' +
      'd80432a70e0a250a0012001a0022002a003200380042005a0b0a0361707012047269636862060a016112016212fd0d0a1d0a' +
      '0773637261746368121212100a064d656d6f727912060a0436344d690a0d0a05656d707479120412020a000a1f0a04686f73' +
      '7412170a150a082f7661722f6c6f6712094469726563746f72790a250a03636667121e9a011b0a050a03636667120d0a0161' +
      '1205612e74787418800218a40320000a110a03736563120a32080a017318800220010a130a05636c61696d120a52080a0464' +
      '61746110010a660a0470726f6a125ed2015b0a1322110a057661756c7410901c1a05746f6b656e0a0b1a090a050a03636667' +
      '20010a0f0a0d0a030a017312060a01701201700a2312210a1f0a066c6162656c7312150a027631120f6d657461646174612e' +
      '6c6162656c7310a4020a2c0a04646f776e12248201210a1f0a036370751a180a046d61696e120a6c696d6974732e6370751a' +
      '040a02316d0a4f0a036570681248ea01450a430a180a0012001a0022002a003200380042005a060a017812017912270a0d52' +
      '65616457726974654f6e6365121212100a0773746f7261676512050a033147691a002a0012b3050a046d61696e1205617070' +
      '3a32220b2d2d706f72743d3830383022002a022f7732120a0468747470100018903f22035443502a0032190a0010b8940118' +
      'a84622035544502a093132372e302e302e313a0a0a05504c41494e1201763a090a05454d50545912003a1c0a03504f441200' +
      '1a130a110a00120d6d657461646174612e6e616d653a230a034d454d12001a1a12180a00120d6c696d6974732e6d656d6f72' +
      '791a050a03314d693a160a02434d12001a0e1a0c0a050a0363666712016118003a130a0353454312001a0a22080a030a0173' +
      '120170425b0a0d0a0363707512060a043530306d0a160a0f6578616d706c652e636f6d2f67707512030a01310a110a066d65' +
      '6d6f727912070a053132384d69120d0a0363707512060a043235306d12100a066d656d6f727912060a0436344d694a190a07' +
      '7363726174636810001a082f73637261746368220032004a200a0363666710011a082f6574632f6366672205612e7478742a' +
      '044e6f6e653200523c0a2e122c0a082f6865616c74687a120a080110001a04687474701a002204485454502a0c0a07582d50' +
      '726f626512013110051801200a28013003380a5a190a0d1a0b0a07080010903f1a0012001000180020052800300062170a0f' +
      '0a0d0a046563686f0a0573746172741204220208056a142f6465762f7465726d696e6174696f6e2d6c6f67720c49664e6f74' +
      '50726573656e747a4b0a170a104e45545f42494e445f534552564943451203414c4c100020e8072801300138005a130a094c' +
      '6f63616c686f73741206702e6a736f6e62100a0e52756e74696d6544656661756c748001018801009001019a010f0a044346' +
      '475f12070a050a036366679a010b0a001a070a030a01731001a2011546616c6c6261636b546f4c6f67734f6e4572726f72b2' +
      '011c0a100a0e0a036361740a072f746d702f6f6b1000180020002800301e12520a04677270631203673a312a0042091a070a' +
      '0367707512005a130a0722050882471200100018002000280030006a007200800100880100900100a20100ba01120a036370' +
      '75120b4e6f7452657175697265641a054e65766572200028ac0232044e6f6e653a0b0a046469736b12037373644207627569' +
      '6c6465724a005200580060006800724e1000180020b81720a01f28d00f30e8073a1a0a126e65742e636f72652e736f6d6178' +
      '636f6e6e1204313032344a0e4f6e526f6f744d69736d6174636852100a0e52756e74696d6544656661756c747a090a077265' +
      '6763726564820101688a010173920182010a460a210a1f0a1d0a106b756265726e657465732e696f2f6f731202496e1a056c' +
      '696e75781221080a121d121b0a0d6d657461646174612e6e616d6512054e6f74496e1a036261641a381236086412320a0f12' +
      '0d0a036170701206457869737473120764656661756c741a166b756265726e657465732e696f2f686f73746e616d659a0111' +
      '64656661756c742d7363686564756c6572a2013c0a04696e6974120962757379626f783a311a0273681a022d631a04747275' +
      '652a0042006a007200800100880100900100a20100c20106416c77617973a80100b201240a09646564696361746564120545' +
      '7175616c1a0367707522094e6f457865637574652800b2010e0a0012064578697374731a002200ba011c0a0831302e302e30' +
      '2e311207612e6c6f63616c1207622e6c6f63616cc2010468696768d201290a07312e312e312e3112097376632e6c6f63616c' +
      '1a0a0a056e646f74731201321a070a0565646e7330d80101e201130a116578616d706c652e636f6d2f7265616479ea0100f0' +
      '01008a023b080112047a6f6e651a0d446f4e6f745363686564756c65220d0a0b0a0361707012047269636828024211706f64' +
      '2d74656d706c6174652d68617368a202070a056c696e7578a80200b202060a0467617465380040004a07496e646578656450' +
      '005a4a0a240a074661696c4a6f6212190a046d61696e1202496e182a18ffffffffffffffffff0118070a220a0649676e6f72' +
      '651a180a1044697372757074696f6e5461726765741204547275651a082000280030003a001a002200',
    json: {
      kind: 'Job',
      apiVersion: 'batch/v1',
      metadata: {
        name: 'rich-run',
        creationTimestamp: null,
        labels: { team: 'infra', tier: '' },
        annotations: { 'cronjob.kubernetes.io/instantiate': 'manual', empty: '', note: 'hello world' },
        ownerReferences: [{ apiVersion: 'batch/v1', kind: 'CronJob', name: 'rich', uid: 'cj-uid-1', controller: true }],
      },
      spec: {
        parallelism: 2,
        completions: 3,
        activeDeadlineSeconds: 600,
        podFailurePolicy: {
          rules: [
            { action: 'FailJob', onExitCodes: { containerName: 'main', operator: 'In', values: [42, -1, 7] } },
            { action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] },
          ],
        },
        backoffLimit: 0,
        template: {
          metadata: { creationTimestamp: null, labels: { app: 'rich' }, annotations: { a: 'b' } },
          spec: {
            volumes: [
              { name: 'scratch', emptyDir: { medium: 'Memory', sizeLimit: '64Mi' } },
              { name: 'empty', emptyDir: {} },
              { name: 'host', hostPath: { path: '/var/log', type: 'Directory' } },
              { name: 'cfg', configMap: { name: 'cfg', items: [{ key: 'a', path: 'a.txt', mode: 256 }], defaultMode: 420, optional: false } },
              { name: 'sec', secret: { secretName: 's', defaultMode: 256, optional: true } },
              { name: 'claim', persistentVolumeClaim: { claimName: 'data', readOnly: true } },
              {
                name: 'proj',
                projected: {
                  sources: [
                    { serviceAccountToken: { audience: 'vault', expirationSeconds: 3600, path: 'token' } },
                    { configMap: { name: 'cfg', optional: true } },
                    { secret: { name: 's', items: [{ key: 'p', path: 'p' }] } },
                    { downwardAPI: { items: [{ path: 'labels', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.labels' } }] } },
                  ],
                  defaultMode: 292,
                },
              },
              { name: 'down', downwardAPI: { items: [{ path: 'cpu', resourceFieldRef: { containerName: 'main', resource: 'limits.cpu', divisor: '1m' } }] } },
              {
                name: 'eph',
                ephemeral: {
                  volumeClaimTemplate: {
                    metadata: { creationTimestamp: null, labels: { x: 'y' } },
                    spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, storageClassName: '' },
                  },
                },
              },
            ],
            initContainers: [{ name: 'init', image: 'busybox:1', command: ['sh', '-c', 'true'], resources: {}, restartPolicy: 'Always' }],
            containers: [
              {
                name: 'main',
                image: 'app:2',
                args: ['--port=8080', ''],
                workingDir: '/w',
                ports: [
                  { name: 'http', containerPort: 8080, protocol: 'TCP' },
                  { hostPort: 19000, containerPort: 9000, protocol: 'UDP', hostIP: '127.0.0.1' },
                ],
                envFrom: [{ prefix: 'CFG_', configMapRef: { name: 'cfg' } }, { secretRef: { name: 's', optional: true } }],
                env: [
                  { name: 'PLAIN', value: 'v' },
                  { name: 'EMPTY' },
                  { name: 'POD', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
                  { name: 'MEM', valueFrom: { resourceFieldRef: { resource: 'limits.memory', divisor: '1Mi' } } },
                  { name: 'CM', valueFrom: { configMapKeyRef: { name: 'cfg', key: 'a', optional: false } } },
                  { name: 'SEC', valueFrom: { secretKeyRef: { name: 's', key: 'p' } } },
                ],
                resources: { limits: { cpu: '500m', 'example.com/gpu': '1', memory: '128Mi' }, requests: { cpu: '250m', memory: '64Mi' } },
                volumeMounts: [
                  { name: 'scratch', mountPath: '/scratch' },
                  { name: 'cfg', readOnly: true, mountPath: '/etc/cfg', subPath: 'a.txt', mountPropagation: 'None' },
                ],
                livenessProbe: {
                  httpGet: { path: '/healthz', port: 'http', scheme: 'HTTP', httpHeaders: [{ name: 'X-Probe', value: '1' }] },
                  initialDelaySeconds: 5,
                  timeoutSeconds: 1,
                  periodSeconds: 10,
                  successThreshold: 1,
                  failureThreshold: 3,
                  terminationGracePeriodSeconds: 10,
                },
                readinessProbe: { tcpSocket: { port: 8080 }, periodSeconds: 5 },
                startupProbe: { exec: { command: ['cat', '/tmp/ok'] }, failureThreshold: 30 },
                lifecycle: { postStart: { exec: { command: ['echo', 'start'] } }, preStop: { sleep: { seconds: 5 } } },
                terminationMessagePath: '/dev/termination-log',
                terminationMessagePolicy: 'FallbackToLogsOnError',
                imagePullPolicy: 'IfNotPresent',
                securityContext: {
                  capabilities: { add: ['NET_BIND_SERVICE'], drop: ['ALL'] },
                  privileged: false,
                  runAsUser: 1000,
                  runAsNonRoot: true,
                  readOnlyRootFilesystem: true,
                  allowPrivilegeEscalation: false,
                  seccompProfile: { type: 'Localhost', localhostProfile: 'p.json' },
                  appArmorProfile: { type: 'RuntimeDefault' },
                },
                stdin: true,
                tty: true,
              },
              {
                name: 'grpc',
                image: 'g:1',
                resources: { claims: [{ name: 'gpu' }] },
                resizePolicy: [{ resourceName: 'cpu', restartPolicy: 'NotRequired' }],
                readinessProbe: { grpc: { port: 9090, service: '' } },
              },
            ],
            restartPolicy: 'Never',
            terminationGracePeriodSeconds: 0,
            activeDeadlineSeconds: 300,
            dnsPolicy: 'None',
            nodeSelector: { disk: 'ssd' },
            serviceAccountName: 'builder',
            automountServiceAccountToken: false,
            shareProcessNamespace: true,
            securityContext: {
              runAsUser: 0,
              runAsGroup: 1000,
              runAsNonRoot: false,
              supplementalGroups: [3000, 4000],
              fsGroup: 2000,
              sysctls: [{ name: 'net.core.somaxconn', value: '1024' }],
              fsGroupChangePolicy: 'OnRootMismatch',
              seccompProfile: { type: 'RuntimeDefault' },
            },
            imagePullSecrets: [{ name: 'regcred' }],
            hostname: 'h',
            subdomain: 's',
            affinity: {
              nodeAffinity: {
                requiredDuringSchedulingIgnoredDuringExecution: {
                  nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/os', operator: 'In', values: ['linux'] }] }],
                },
                preferredDuringSchedulingIgnoredDuringExecution: [
                  { weight: 10, preference: { matchFields: [{ key: 'metadata.name', operator: 'NotIn', values: ['bad'] }] } },
                ],
              },
              podAntiAffinity: {
                preferredDuringSchedulingIgnoredDuringExecution: [
                  {
                    weight: 100,
                    podAffinityTerm: {
                      labelSelector: { matchExpressions: [{ key: 'app', operator: 'Exists' }] },
                      namespaces: ['default'],
                      topologyKey: 'kubernetes.io/hostname',
                    },
                  },
                ],
              },
            },
            schedulerName: 'default-scheduler',
            tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'NoExecute', tolerationSeconds: 0 }, { operator: 'Exists' }],
            hostAliases: [{ ip: '10.0.0.1', hostnames: ['a.local', 'b.local'] }],
            priorityClassName: 'high',
            dnsConfig: { nameservers: ['1.1.1.1'], searches: ['svc.local'], options: [{ name: 'ndots', value: '2' }, { name: 'edns0' }] },
            readinessGates: [{ conditionType: 'example.com/ready' }],
            runtimeClassName: '',
            enableServiceLinks: false,
            topologySpreadConstraints: [
              {
                maxSkew: 1,
                topologyKey: 'zone',
                whenUnsatisfiable: 'DoNotSchedule',
                labelSelector: { matchLabels: { app: 'rich' } },
                minDomains: 2,
                matchLabelKeys: ['pod-template-hash'],
              },
            ],
            os: { name: 'linux' },
            hostUsers: false,
            schedulingGates: [{ name: 'gate' }],
          },
        },
        ttlSecondsAfterFinished: 0,
        completionMode: 'Indexed',
        suspend: false,
      },
      status: {},
    },
  },
  {
    name: 'deleteoptions-empty',
    command: 'kubectl drain n1 (eviction unsupported, falls back to DELETE)',
    // No --dry-run exists for these; expected values are DeleteOptions as encoding/json writes them.
    protobufHex: '6b3873000a130a027631120d44656c6574654f7074696f6e7312001a002200',
    json: { kind: 'DeleteOptions', apiVersion: 'v1' },
  },
  {
    name: 'deleteoptions-grace5',
    command: 'kubectl drain n1 --disable-eviction --grace-period=5',
    protobufHex: '6b3873000a130a027631120d44656c6574654f7074696f6e73120208051a002200',
    json: { kind: 'DeleteOptions', apiVersion: 'v1', gracePeriodSeconds: 5 },
  },
  {
    name: 'deleteoptions-grace0',
    command: 'kubectl drain n1 --disable-eviction --grace-period=0',
    protobufHex: '6b3873000a130a027631120d44656c6574654f7074696f6e73120208001a002200',
    json: { kind: 'DeleteOptions', apiVersion: 'v1', gracePeriodSeconds: 0 },
  },
  {
    name: 'pod-debug-node',
    command: 'kubectl debug node/n1 --image=busybox:1 --attach=false -- sleep 1',
    // kubectl debug has no --dry-run; expected value written from the upstream node-debugger profile.
    protobufHex:
      '6b3873000a090a0276311203506f6412d8010a260a166e6f64652d64656275676765722d6e312d353864713812001a002200' +
      '2a00320038004200129b010a120a09686f73742d726f6f7412050a030a012f12510a08646562756767657212096275737962' +
      '6f783a311a05736c6565701a01312a0042004a180a09686f73742d726f6f7410001a052f686f7374220032006a0072008001' +
      '00880100900100a2010446696c651a054e65766572320042004a0052026e315801600168018201008a01009a0100b2010e0a' +
      '0012064578697374731a002200c201001a100a001a0022002a0032004a005a0072001a002200',
    json: {
      kind: 'Pod',
      apiVersion: 'v1',
      metadata: { name: 'node-debugger-n1-58dq8', creationTimestamp: null },
      spec: {
        volumes: [{ name: 'host-root', hostPath: { path: '/' } }],
        containers: [
          {
            name: 'debugger',
            image: 'busybox:1',
            command: ['sleep', '1'],
            resources: {},
            volumeMounts: [{ name: 'host-root', mountPath: '/host' }],
            terminationMessagePolicy: 'File',
          },
        ],
        restartPolicy: 'Never',
        nodeName: 'n1',
        hostNetwork: true,
        hostPID: true,
        hostIPC: true,
        tolerations: [{ operator: 'Exists' }],
      },
      status: {},
    },
  },
];
