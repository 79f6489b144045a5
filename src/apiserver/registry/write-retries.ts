// How often a write that raced another one is made again on the newer object. Writes sent
// together share one group commit, where each write after the first to the same object
// conflicts; every round lets one writer through, so N racing writers need N rounds. Kubernetes
// retries such races without a limit; the cap only stops a pathological loop, and a write that
// reaches it is answered 409 Conflict.
export const MAX_WRITE_RETRIES = 100;
