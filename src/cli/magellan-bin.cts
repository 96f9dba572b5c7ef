#!/usr/bin/env -S -u NODE_EXTRA_CA_CERTS node
/**
 * The `magellan` command. Runs the bundle the build makes of the CLI (magellan.bundle.cjs, see
 * scripts/bundle.ts) with a V8 code cache; without a bundle (a build that ran tsc alone), the
 * ES modules tsc emitted, which behave the same.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { runBundle } from "../contract/code-cache.cjs";

// Each command keeps its own cache (a find compiles other functions than an index); anything
// else shares one.
const COMMANDS = new Set(["index", "watch", "status", "query", "find", "refs", "files", "validate", "collisions", "export", "symbols", "ast", "ast-query"]);

const bundle = join(__dirname, "magellan.bundle.cjs");
const command = process.argv[2] ?? "";
if (existsSync(bundle)) runBundle(bundle, COMMANDS.has(command) ? command : "other");
else void import("./magellan.js");
