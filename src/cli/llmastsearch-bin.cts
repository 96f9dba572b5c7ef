#!/usr/bin/env -S -u NODE_EXTRA_CA_CERTS node --lite-mode --no-expose-wasm
/**
 * The `llmastsearch` command: through the workspace's daemon, else the bundled CLI (runBin in
 * src/server/client.cts; scripts/bundle.ts makes this one file with the client).
 *
 * V8's lite mode (no optimizing compiler, smaller heaps): the work is tree-sitter's, in C, so it
 * costs no time on the class query of docs/llmastsearch.md and saves 14 MB of peak RSS with one
 * thread, 28 MB with two (every isolate is smaller). `--no-expose-wasm` because lite mode turns
 * WebAssembly off anyway and V8 would say so on stderr.
 */
import { runBin } from "../server/client.cjs";

runBin(__dirname, "llmastsearch", []);
