#!/usr/bin/env node
// Entry point of the `drover` command: the compiled CLI (built by `npm install` via `prepare`).
import '../dist/src/cli/main.js';
