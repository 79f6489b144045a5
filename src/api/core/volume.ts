// core/v1 Volume and the volume sources Drover mounts (emptyDir, hostPath, configMap, secret,
// downwardAPI, projected, persistentVolumeClaim); the other sources the schema accepts stay open.
import type { ObjectMeta } from '../meta.js';
import type { ObjectFieldSelector, ResourceFieldSelector } from './container.js';

/** One key of a ConfigMap or Secret written to a relative path. */
export interface KeyToPath {
  key: string;
  path: string;
  mode?: number;
}

/** One file of a downwardAPI volume: a pod field or a container resource. */
export interface DownwardAPIVolumeFile {
  path: string;
  fieldRef?: ObjectFieldSelector;
  resourceFieldRef?: ResourceFieldSelector;
  mode?: number;
}

export interface DownwardAPIVolumeSource {
  items?: DownwardAPIVolumeFile[];
  defaultMode?: number;
}

export interface ConfigMapVolumeSource {
  name?: string;
  items?: KeyToPath[];
  defaultMode?: number;
  optional?: boolean;
}

export interface SecretVolumeSource {
  secretName?: string;
  items?: KeyToPath[];
  defaultMode?: number;
  optional?: boolean;
}

/** A ConfigMap or Secret inside a projected volume (named by `name`, unlike a secret volume). */
export interface KeyProjection {
  name?: string;
  items?: KeyToPath[];
  optional?: boolean;
}

export interface ServiceAccountTokenProjection {
  audience?: string;
  expirationSeconds?: number;
  path: string;
}

/** One source of a projected volume: exactly one field is set. */
export interface VolumeProjection {
  secret?: KeyProjection;
  configMap?: KeyProjection;
  downwardAPI?: { items?: DownwardAPIVolumeFile[] };
  serviceAccountToken?: ServiceAccountTokenProjection;
}

export interface ProjectedVolumeSource {
  sources?: VolumeProjection[];
  defaultMode?: number;
}

export interface PersistentVolumeClaimVolumeSource {
  claimName: string;
  readOnly?: boolean;
}

/** A volume of a pod: its name and exactly one source. */
export interface Volume {
  name: string;
  emptyDir?: { medium?: string; sizeLimit?: string | number };
  hostPath?: { path: string; type?: string };
  configMap?: ConfigMapVolumeSource;
  secret?: SecretVolumeSource;
  downwardAPI?: DownwardAPIVolumeSource;
  projected?: ProjectedVolumeSource;
  persistentVolumeClaim?: PersistentVolumeClaimVolumeSource;
  /** A claim made for the pod from this template and deleted with it. */
  ephemeral?: { volumeClaimTemplate?: { metadata?: ObjectMeta; spec: Record<string, unknown> } };
  /** Sources Drover stores but does not mount (nfs, csi, ephemeral, ...). */
  [source: string]: unknown;
}
