/**
 * A solution-style tsconfig.json whose referenced projects share files: hono's tsconfig.build.json
 * holds src without its tests, tsconfig.spec.json src with them. A rename through the first
 * alone left HTTPException in 8 test files, and a change that broke a test was validated.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { project, read, resultOf, splice } from "./helpers.js";

test("rename reaches the tests of a sibling project that holds the file too", async () => {
  const dir = project("ts-solution");
  const o = await splice(dir, { command: "rename", file: "src/http-exception.ts", symbol: "HTTPException", to: "HttpError" });
  assert.equal(o.status, "ok", o.message);
  assert.equal(resultOf(o).validation, "validated");
  assert.deepEqual(resultOf(o).files.map((f) => f.file_path), ["src/hono-base.ts", "src/http-exception.ts", "src/request.test.ts", "src/request.ts"]);
  assert.doesNotMatch(read(dir, "src/request.test.ts"), /HTTPException/);
  assert.match(JSON.stringify(resultOf(o).steps), /also searched project tsconfig\.spec\.json, which holds src\/http-exception\.ts too/);
});

test("a change that breaks only a test of the sibling project is rejected", async () => {
  const dir = project("ts-solution");
  const before = read(dir, "src/http-exception.ts");
  const o = await splice(dir, { command: "patch", file: "src/http-exception.ts", symbol: "HTTPException.getResponse", content: "toResponse(): { status: number; body: string } {\n  return { status: this.status, body: this.message };\n}" });
  assert.equal(o.status, "error", o.message);
  assert.equal(o.error?.code, "SPLICE_E110");
  assert.match(o.message, /src\/request\.test\.ts:9: Property 'getResponse' does not exist on type 'HTTPException'/);
  assert.match(JSON.stringify(resultOf(o).checkers), /tsconfig\.spec\.json, \d+ files? checked/);
  assert.equal(read(dir, "src/http-exception.ts"), before);
});

test("a change to a base class is checked in the files that import its exported subclass (hono's HonoBase.fire, called as app.fire() on a Hono in hono.test.ts)", async () => {
  const dir = project("ts-solution");
  const before = read(dir, "src/hono-base.ts");
  const o = await splice(dir, { command: "delete", file: "src/hono-base.ts", symbol: "HonoBase.fire", force: true });
  assert.equal(o.status, "error", o.message);
  assert.equal(o.error?.code, "SPLICE_E110");
  assert.match(o.message, /src\/hono\.test\.ts:5: Property 'fire' does not exist on type 'Hono'/);
  assert.equal(read(dir, "src/hono-base.ts"), before);
});
