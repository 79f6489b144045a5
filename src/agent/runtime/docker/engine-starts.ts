// At most so many container creates and starts in the Engine at once. Docker starts a container
// with CPU (runc, namespaces, cgroups, the network), and past the machine's cores more at once
// only makes each slower: 50 pods at once on 2 cores (bench:startup many, 5 rounds each) took,
// before this limit, 10,113 ms with 64 pod workers, 6,556 with 16 and 6,294 with 8 — `docker run
// -d` of 50, 5,980.
// The limit (client.ts's `starts`) is on these Engine calls, not on the agent's pod workers: a
// sync that waits for something else (a sandbox to run) holds no place.

/** Creates and starts in the Engine at once, per core. */
export const STARTS_PER_CORE = 4;
