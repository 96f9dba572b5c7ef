/**
 * The habits every bin shares (CONTRACT.md): --help and --version answer, a bad flag is a usage
 * error (exit 2) whose stdout is still one contract-valid JSON document, nothing else on stdout.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { REPO_ROOT, runTool } from "../support/run.js";

const pkg = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as { version: string; bin: Record<string, string> };

for (const tool of Object.keys(pkg.bin).sort()) {
  test(`${tool}: --help, --version, and a bad flag exits 2 with a JSON error`, async () => {
    const help = await runTool(tool, ["--help"], { raw: true });
    assert.equal(help.code, 0, help.stderr);
    assert.match(help.stdout, new RegExp(`Usage: ${tool}`));
    // A repeatable flag's empty start is no default to print (llmsearch said it after six flags).
    assert.doesNotMatch(help.stdout, /\(default: \[\]\)/);
    const version = await runTool(tool, ["--version"], { raw: true });
    assert.equal(version.code, 0);
    assert.equal(version.stdout.trim(), pkg.version);
    const bad = await runTool(tool, ["--no-such-flag"]);
    assert.equal(bad.code, 2);
    assert.equal(bad.stdout.trim().split("\n").length, 1, "one JSON line on stdout");
    assert.match(bad.stdout, new RegExp(`${tool.toUpperCase()}_E000`));
  });
}
