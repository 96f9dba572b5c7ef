/**
 * A file with a BOM and CRLF line endings keeps both through every symbol command: each new line
 * ends in CRLF, no `\r` is split from its `\n`.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { project, resultOf, splice } from "./helpers.js";

const bytesOf = (dir: string, rel: string): string => readFileSync(join(dir, rel), "latin1");

function assertCrlf(text: string): void {
  assert.ok(text.startsWith("\xef\xbb\xbf"), "the BOM stays");
  assert.doesNotMatch(text, /\r\r/, JSON.stringify(text));
  assert.doesNotMatch(text, /[^\r]\n/, JSON.stringify(text));
  assert.ok(text.endsWith("\r\n"), JSON.stringify(text.slice(-20)));
}

test("insert after a method (in the middle and at the end of the file) keeps CRLF whole; patch, patch --body and delete keep BOM and CRLF", async () => {
  const dir = project("crlf");
  const mid = await splice(dir, { command: "insert", file: "pkg/helpers.py", after_symbol: "Thing.go", timeout_ms: 30_000, content: "def stop(self) -> int:\n    return 0" });
  assert.equal(mid.status, "ok", mid.message);
  let text = bytesOf(dir, "pkg/helpers.py");
  assertCrlf(text);
  assert.match(text, /        return used_helper\(1\)\r\n\r\n    def stop\(self\) -> int:\r\n        return 0\r\n\r\n    def last/);
  const end = await splice(dir, { command: "insert", file: "pkg/helpers.py", after_symbol: "Thing.last", timeout_ms: 30_000, content: "def final(self) -> int:\n    return 3" });
  assert.equal(end.status, "ok", end.message);
  text = bytesOf(dir, "pkg/helpers.py");
  assertCrlf(text);
  assert.ok(text.endsWith("        return used_helper(2)\r\n\r\n    def final(self) -> int:\r\n        return 3\r\n"), JSON.stringify(text.slice(-90)));
  const top = await splice(dir, { command: "insert", file: "pkg/helpers.py", after_symbol: "used_helper", timeout_ms: 30_000, content: "def other() -> int:\n    return 1" });
  assert.equal(top.status, "ok", top.message);
  assertCrlf(bytesOf(dir, "pkg/helpers.py"));
  const body = await splice(dir, { command: "patch", file: "pkg/helpers.py", symbol: "Thing.go", body: true, timeout_ms: 30_000, content: "n = used_helper(1)\nreturn n" });
  assert.equal(body.status, "ok", body.message);
  const whole = await splice(dir, { command: "patch", file: "pkg/helpers.py", symbol: "used_helper", timeout_ms: 30_000, content: "def used_helper(x: int) -> int:\n    y = x + 1\n    return y" });
  assert.equal(whole.status, "ok", whole.message);
  const del = await splice(dir, { command: "delete", file: "pkg/helpers.py", symbol: "unused_helper", timeout_ms: 30_000 });
  assert.equal(del.status, "ok", del.message);
  assert.equal(resultOf(del).validation, "validated");
  text = bytesOf(dir, "pkg/helpers.py");
  assertCrlf(text);
  assert.doesNotMatch(text, /unused_helper/);
  assert.match(text, /    def go\(self\) -> int:\r\n        n = used_helper\(1\)\r\n        return n\r\n/);
});
