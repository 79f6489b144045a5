// core/v1 security settings of containers and pods.
import { Type } from '@sinclair/typebox';
import { atomicList, bool, field, int64, list, named, enumStr, str, stringList, struct } from './builders.js';

const CORE = 'io.k8s.api.core.v1';

export const SELinuxOptions = named(
  `${CORE}.SELinuxOptions`,
  struct('SELinux labels applied to a container.', {
    user: str('SELinux user label.'),
    role: str('SELinux role label.'),
    type: str('SELinux type label.'),
    level: str('SELinux level label.'),
  }),
);

export const WindowsSecurityContextOptions = named(
  `${CORE}.WindowsSecurityContextOptions`,
  struct('Windows-specific security options.', {
    gmsaCredentialSpecName: str('Name of the GMSA credential spec to use.'),
    gmsaCredentialSpec: str('Contents of the GMSA credential spec named by gmsaCredentialSpecName.'),
    runAsUserName: str("User name to run the container's entrypoint as."),
    hostProcess: bool('Run the container as a Windows host process.'),
  }),
);

export const SeccompProfile = named(
  `${CORE}.SeccompProfile`,
  struct(
    'Seccomp profile of a pod or container. Exactly one source may be set.',
    {
      type: enumStr("Kind of profile: Localhost (a file on the node), RuntimeDefault (the runtime's default) or Unconfined.", [
        'Localhost',
        'RuntimeDefault',
        'Unconfined',
      ]),
      localhostProfile: str("Path of the profile file, relative to the kubelet's seccomp directory. Only with type Localhost."),
    },
    ['type'],
  ),
);

export const AppArmorProfile = named(
  `${CORE}.AppArmorProfile`,
  struct(
    'AppArmor profile of a pod or container.',
    {
      type: enumStr('Kind of profile: Localhost (loaded on the node), RuntimeDefault or Unconfined.', ['Localhost', 'RuntimeDefault', 'Unconfined']),
      localhostProfile: str('Name of a profile loaded on the node. Only with type Localhost.'),
    },
    ['type'],
  ),
);

export const Capabilities = named(
  `${CORE}.Capabilities`,
  struct('Linux capabilities to add to or drop from a running container.', {
    add: stringList('Capabilities to add, e.g. NET_ADMIN.'),
    drop: stringList('Capabilities to remove, e.g. ALL.'),
  }),
);

export const SecurityContext = named(
  `${CORE}.SecurityContext`,
  struct("Security settings of one container. Fields set here override the same fields of the pod's securityContext.", {
    capabilities: field(Capabilities, "Capabilities to add or drop. Defaults to the runtime's default set."),
    privileged: bool('Run the container in privileged mode, equivalent to root on the host. Defaults to false.'),
    seLinuxOptions: field(SELinuxOptions, 'SELinux context of the container; a random one is chosen by the runtime when unset.'),
    windowsOptions: field(WindowsSecurityContextOptions, 'Windows-specific settings.'),
    runAsUser: int64('UID to run the entrypoint as. Defaults to the user in the image metadata.'),
    runAsGroup: int64('GID to run the entrypoint as. Defaults to the runtime default.'),
    runAsNonRoot: bool('Require the container to run as a non-root user; the kubelet refuses to start it as UID 0.'),
    readOnlyRootFilesystem: bool("Mount the container's root filesystem read-only. Defaults to false."),
    allowPrivilegeEscalation: bool(
      'Whether a process can gain more privileges than its parent (sets no_new_privs). Always true when privileged or with CAP_SYS_ADMIN.',
    ),
    procMount: enumStr('Kind of /proc mount: Default or Unmasked.', ['Default', 'Unmasked']),
    seccompProfile: field(SeccompProfile, "Seccomp profile of the container; overrides the pod's."),
    appArmorProfile: field(AppArmorProfile, "AppArmor profile of the container; overrides the pod's."),
  }),
);

export const Sysctl = named(
  `${CORE}.Sysctl`,
  struct(
    'A kernel parameter to set.',
    {
      name: str('Name of the parameter, e.g. net.core.somaxconn.'),
      value: str('Value to set.'),
    },
    ['name', 'value'],
  ),
);

export const PodSecurityContext = named(
  `${CORE}.PodSecurityContext`,
  struct('Security settings applied to every container of the pod, and pod-level settings such as fsGroup. Container settings take precedence.', {
    seLinuxOptions: field(SELinuxOptions, 'SELinux context for all containers.'),
    windowsOptions: field(WindowsSecurityContextOptions, 'Windows-specific settings for all containers.'),
    runAsUser: int64('UID to run container entrypoints as.'),
    runAsGroup: int64('GID to run container entrypoints as.'),
    runAsNonRoot: bool('Require containers to run as non-root users.'),
    supplementalGroups: list(
      'Extra GIDs added to the first process of every container, besides its primary GID and fsGroup.',
      Type.Integer({ format: 'int64' }),
      { 'x-kubernetes-list-type': 'atomic' },
    ),
    supplementalGroupsPolicy: enumStr(
      "How supplemental groups of the first process are computed: Merge (with the groups in the image's /etc/group) or Strict.",
      ['Merge', 'Strict'],
    ),
    fsGroup: int64('A supplemental group applied to all containers; volumes that support ownership management are owned by it and made group-writable.'),
    fsGroupChangePolicy: enumStr('When volume ownership and permissions are changed: OnRootMismatch or Always (the default).', ['OnRootMismatch', 'Always']),
    sysctls: atomicList('Namespaced kernel parameters set for the pod. Unsupported ones make the pod fail to start.', Sysctl),
    seccompProfile: field(SeccompProfile, 'Seccomp profile for all containers.'),
    appArmorProfile: field(AppArmorProfile, 'AppArmor profile for all containers.'),
    seLinuxChangePolicy: str('How the SELinux label is applied to volumes: Recursive or MountOption.'),
  }),
);
