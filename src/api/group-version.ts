// An object's apiVersion is its group and version in one string: `v1` for the core group (whose
// name is empty), `apps/v1` for the others. Every layer reads and writes it here.

export interface GroupVersion {
  group: string;
  version: string;
}

/** `v1` for the core group, `group/version` for the others. */
export function apiVersionOf(gv: GroupVersion): string {
  return gv.group === '' ? gv.version : `${gv.group}/${gv.version}`;
}

/** Where the group version is served: `/api/v1` for the core group, `/apis/{group}/{version}` for the others. */
export function groupVersionPath(gv: GroupVersion): string {
  return gv.group === '' ? `/api/${gv.version}` : `/apis/${gv.group}/${gv.version}`;
}

/** The group and version of an apiVersion (Kubernetes' ParseGroupVersion, lenient: what follows a second slash is the version's). */
export function parseApiVersion(apiVersion: string): GroupVersion {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? { group: '', version: apiVersion } : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}
