#!/usr/bin/env -S node --max-semi-space-size=4
// Entry point of the `drover` command: the compiled CLI (built by `npm install` via `prepare`).
// The flag keeps V8's young generation small: the server's garbage is short-lived request
// data, and a 4 MiB semi-space halves its resident memory and shortens the pauses behind the
// write-latency tail (measured with `npm run bench:api`). V8 takes it only on the command line.
import '../dist/src/cli/main.js';
