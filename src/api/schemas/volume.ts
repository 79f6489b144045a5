// core/v1 Volume and the volume sources manifests commonly use.
import { atomicList, bool, field, int32, int64, map, named, enumStr, quantity, resourceList, str, stringList, struct, type Schema } from './builders.js';
import { LabelSelector, ObjectMeta } from './meta.js';
import { ObjectFieldSelector, ResourceFieldSelector } from './container.js';
import { LocalObjectReference } from './object-reference.js';

const CORE = 'io.k8s.api.core.v1';
const MODE = 'Permission bits of created files, 0000-0777 (YAML accepts octal, JSON needs decimal). Defaults to 0644.';

export const KeyToPath = named(
  `${CORE}.KeyToPath`,
  struct(
    'Maps a key to a file path within a volume.',
    {
      key: str('The key to project.'),
      path: str('Relative path of the file; may not be absolute, contain ".." or start with "..".'),
      mode: int32("Permission bits of this file, 0000-0777; defaults to the volume's defaultMode."),
    },
    ['key', 'path'],
  ),
);

function projectionItems(kind: string): Schema {
  return atomicList(`Keys of the ${kind} to project, each to its own path. When unset every key becomes a file named after it.`, KeyToPath);
}

export const SecretVolumeSource = named(
  `${CORE}.SecretVolumeSource`,
  struct('Fills a volume with the keys of a Secret.', {
    secretName: str("Name of the Secret in the pod's namespace."),
    items: projectionItems('Secret'),
    defaultMode: int32(MODE),
    optional: bool('When true, a missing Secret or key is not an error.'),
  }),
);

export const ConfigMapVolumeSource = named(
  `${CORE}.ConfigMapVolumeSource`,
  struct('Fills a volume with the keys of a ConfigMap.', {
    name: str("Name of the ConfigMap in the pod's namespace."),
    items: projectionItems('ConfigMap'),
    defaultMode: int32(MODE),
    optional: bool('When true, a missing ConfigMap or key is not an error.'),
  }),
);

export const DownwardAPIVolumeFile = named(
  `${CORE}.DownwardAPIVolumeFile`,
  struct(
    'One file holding pod information.',
    {
      path: str('Relative path of the file.'),
      fieldRef: field(ObjectFieldSelector, 'A field of the pod: metadata.name, metadata.namespace, metadata.labels, metadata.annotations, metadata.uid.'),
      resourceFieldRef: field(ResourceFieldSelector, 'A resource limit or request of a container.'),
      mode: int32('Permission bits of this file, 0000-0777.'),
    },
    ['path'],
  ),
);

export const DownwardAPIVolumeSource = named(
  `${CORE}.DownwardAPIVolumeSource`,
  struct('Fills a volume with information about the pod.', {
    items: atomicList('The files to create.', DownwardAPIVolumeFile),
    defaultMode: int32(MODE),
  }),
);

const ServiceAccountTokenProjection = named(
  `${CORE}.ServiceAccountTokenProjection`,
  struct(
    "A token of the pod's service account, refreshed by the kubelet.",
    {
      audience: str("Intended audience of the token; defaults to the API server's identifier."),
      expirationSeconds: int64('Requested lifetime of the token (at least 600). Defaults to one hour.'),
      path: str('Relative path of the token file.'),
    },
    ['path'],
  ),
);

const ClusterTrustBundleProjection = named(
  `${CORE}.ClusterTrustBundleProjection`,
  struct(
    'Certificates of ClusterTrustBundle objects, written to one file.',
    {
      name: str('Name of a single bundle to select.'),
      signerName: str('Select bundles of this signer.'),
      labelSelector: field(LabelSelector, 'Select bundles by label (with signerName).'),
      optional: bool('When true, a missing bundle yields an empty file instead of an error.'),
      path: str('Relative path of the file.'),
    },
    ['path'],
  ),
);

const VolumeProjection = named(
  `${CORE}.VolumeProjection`,
  struct('One source of a projected volume; exactly one field may be set.', {
    secret: field(
      named(
        `${CORE}.SecretProjection`,
        struct('Projects keys of a Secret.', {
          name: str('Name of the Secret.'),
          items: projectionItems('Secret'),
          optional: bool('When true, a missing Secret is not an error.'),
        }),
      ),
      'Keys of a Secret.',
    ),
    configMap: field(
      named(
        `${CORE}.ConfigMapProjection`,
        struct('Projects keys of a ConfigMap.', {
          name: str('Name of the ConfigMap.'),
          items: projectionItems('ConfigMap'),
          optional: bool('When true, a missing ConfigMap is not an error.'),
        }),
      ),
      'Keys of a ConfigMap.',
    ),
    downwardAPI: field(
      named(
        `${CORE}.DownwardAPIProjection`,
        struct('Projects pod information.', {
          items: atomicList('The files to create.', DownwardAPIVolumeFile),
        }),
      ),
      'Information about the pod.',
    ),
    serviceAccountToken: field(ServiceAccountTokenProjection, 'A service account token.'),
    clusterTrustBundle: field(ClusterTrustBundleProjection, 'Certificates of cluster trust bundles.'),
  }),
);

const TypedLocalObjectReference = named(
  `${CORE}.TypedLocalObjectReference`,
  struct(
    'A typed reference to an object in the same namespace.',
    {
      apiGroup: str('API group of the object; empty for the core group.'),
      kind: str('Kind of the object.'),
      name: str('Name of the object.'),
    },
    ['kind', 'name'],
    { 'x-kubernetes-map-type': 'atomic' },
  ),
);

const TypedObjectReference = named(
  `${CORE}.TypedObjectReference`,
  struct(
    'A typed reference to an object, possibly in another namespace.',
    {
      apiGroup: str('API group of the object; empty for the core group.'),
      kind: str('Kind of the object.'),
      name: str('Name of the object.'),
      namespace: str("Namespace of the object; needs a ReferenceGrant when it differs from the claim's."),
    },
    ['kind', 'name'],
  ),
);

export const PersistentVolumeClaimSpec = named(
  `${CORE}.PersistentVolumeClaimSpec`,
  struct('Storage requested by a claim.', {
    accessModes: stringList('Access modes wanted: ReadWriteOnce, ReadOnlyMany, ReadWriteMany, ReadWriteOncePod.'),
    selector: field(LabelSelector, 'Label query over volumes to bind to.'),
    resources: field(
      named(
        `${CORE}.VolumeResourceRequirements`,
        struct('Storage resources of a claim.', {
          limits: resourceList('Maximum storage.'),
          requests: resourceList('Minimum storage, e.g. {storage: 1Gi}.'),
        }),
      ),
      'Minimum resources the volume must have.',
    ),
    volumeName: str('Bind to this PersistentVolume.'),
    storageClassName: str('Name of the StorageClass to provision from.'),
    volumeMode: enumStr('Filesystem (the default) or Block.', ['Filesystem', 'Block']),
    dataSource: field(TypedLocalObjectReference, 'An existing object (a VolumeSnapshot or a claim) to populate the volume from.'),
    dataSourceRef: field(TypedObjectReference, 'Any populator object to fill the volume from; may be in another namespace.'),
    volumeAttributesClassName: str('VolumeAttributesClass to use.'),
  }),
);

export const HostPathVolumeSource = named(
  `${CORE}.HostPathVolumeSource`,
  struct(
    'A file or directory of the host, mounted into the pod.',
    {
      path: str('Path on the host; symlinks are followed.'),
      type: enumStr('What must exist at path: "" (no check), DirectoryOrCreate, Directory, FileOrCreate, File, Socket, CharDevice or BlockDevice.', [
        '',
        'DirectoryOrCreate',
        'Directory',
        'FileOrCreate',
        'File',
        'Socket',
        'CharDevice',
        'BlockDevice',
      ]),
    },
    ['path'],
  ),
);

export const NFSVolumeSource = named(
  `${CORE}.NFSVolumeSource`,
  struct(
    'An NFS export.',
    {
      server: str('Host name or IP of the NFS server.'),
      path: str('Path exported by the server.'),
      readOnly: bool('Mount read-only. Defaults to false.'),
    },
    ['server', 'path'],
  ),
);

const volumeSources: Record<string, Schema> = {
  hostPath: field(HostPathVolumeSource, 'A path on the node. Gives the pod access to the host: use sparingly.'),
  emptyDir: field(
    named(
      `${CORE}.EmptyDirVolumeSource`,
      struct('A directory that starts empty and lives as long as the pod.', {
        medium: enumStr('Storage medium: "" (the node\'s default), Memory (tmpfs), or HugePages / HugePages-<size>.', [
          '',
          'Memory',
          'HugePages',
          'HugePages-2Mi',
          'HugePages-1Gi',
        ]),
        sizeLimit: quantity('Maximum size of the directory; the pod is evicted when it is exceeded.'),
      }),
    ),
    "A temporary directory that shares the pod's lifetime.",
  ),
  secret: field(SecretVolumeSource, 'The keys of a Secret, as files.'),
  configMap: field(ConfigMapVolumeSource, 'The keys of a ConfigMap, as files.'),
  persistentVolumeClaim: field(
    named(
      `${CORE}.PersistentVolumeClaimVolumeSource`,
      struct(
        "A PersistentVolumeClaim in the pod's namespace.",
        {
          claimName: str('Name of the claim.'),
          readOnly: bool('Mount read-only. Defaults to false.'),
        },
        ['claimName'],
      ),
    ),
    'A persistent volume, through a claim.',
  ),
  projected: field(
    named(
      `${CORE}.ProjectedVolumeSource`,
      struct('Several sources projected into one directory.', {
        sources: atomicList('The sources.', VolumeProjection),
        defaultMode: int32(MODE),
      }),
    ),
    'Several sources (secrets, config maps, downward API, tokens) in one directory.',
  ),
  downwardAPI: field(DownwardAPIVolumeSource, 'Information about the pod, as files.'),
  nfs: field(NFSVolumeSource, 'An NFS mount that outlives the pod.'),
  csi: field(
    named(
      `${CORE}.CSIVolumeSource`,
      struct(
        'An ephemeral volume provided by a CSI driver.',
        {
          driver: str('Name of the CSI driver.'),
          readOnly: bool('Mount read-only. Defaults to false.'),
          fsType: str('Filesystem type, e.g. ext4.'),
          volumeAttributes: map('Driver-specific properties.'),
          nodePublishSecretRef: field(LocalObjectReference, "Secret passed to the driver's NodePublishVolume calls."),
        },
        ['driver'],
      ),
    ),
    'A volume from a CSI driver.',
  ),
  ephemeral: field(
    named(
      `${CORE}.EphemeralVolumeSource`,
      struct('A claim created for the pod and deleted with it.', {
        volumeClaimTemplate: field(
          named(
            `${CORE}.PersistentVolumeClaimTemplate`,
            struct(
              'Template of the claim to create.',
              {
                metadata: field(ObjectMeta, 'Labels and annotations copied to the claim.'),
                spec: field(PersistentVolumeClaimSpec, 'Specification of the claim.'),
              },
              ['spec'],
            ),
          ),
          'Template of the claim.',
        ),
      }),
    ),
    'A volume provisioned for the pod alone.',
  ),
  image: field(
    named(
      `${CORE}.ImageVolumeSource`,
      struct('The content of an OCI image or artifact.', {
        reference: str('Image or artifact reference.'),
        pullPolicy: enumStr('When to pull: Always, Never or IfNotPresent.', ['Always', 'IfNotPresent', 'Never']),
      }),
    ),
    'An OCI image mounted read-only.',
  ),
};

/** Names of the volume source fields (exactly one may be set per volume). */
export const VOLUME_SOURCE_FIELDS = Object.keys(volumeSources);

export const Volume = named(
  `${CORE}.Volume`,
  struct(
    'A named volume of the pod that its containers can mount. Exactly one source may be set; none means emptyDir.',
    { name: str('Name of the volume: a DNS label, unique within the pod.'), ...volumeSources },
    ['name'],
  ),
);
