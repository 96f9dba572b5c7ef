/**
 * `--body` of a CommonJS member assigned a function, shaped like express's lib/application.js
 * (`app.route = function route(path) { … };`, `exports.set = (setting, val) => { … };`).
 *
 * Before: SPLICE_E103 "app.route (Method) has no body to replace": the statement holds an
 * assignment whose function sits in its `right` field, which the body lookup never read, so an
 * agent had to give the whole definition, comment and all, to change one line.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { project, read, splice } from "./helpers.js";

test("patch --body: a member assigned a function expression or a block arrow function has its block replaced", async () => {
  const dir = project("js-express");
  const text = read(dir, "application.js");
  const o = await splice(dir, { command: "patch", file: "application.js", symbol: "route", body: true, content: "  var route = this.router.route(path);\n  return route;" });
  assert.equal(o.status, "ok", o.message);
  assert.equal(read(dir, "application.js"), text.replace("  return this.router.route(path);\n", "  var route = this.router.route(path);\n  return route;\n"));

  const text2 = read(dir, "application.js");
  const o2 = await splice(dir, { command: "patch", file: "application.js", symbol: "set", body: true, content: "  this.settings[setting] = val === undefined ? true : val;\n  return this;" });
  assert.equal(o2.status, "ok", o2.message);
  assert.equal(read(dir, "application.js"), text2.replace("  this.settings[setting] = val;\n", "  this.settings[setting] = val === undefined ? true : val;\n"));
});

test("patch --body: an arrow function with an expression body still has no block to replace", async () => {
  const dir = project("js-express");
  const text = read(dir, "application.js");
  const o = await splice(dir, { command: "patch", file: "application.js", symbol: "enabled", body: true, content: "  return true;" });
  assert.equal(o.status, "error");
  assert.equal(o.error?.code, "SPLICE_E103", o.message);
  assert.equal(read(dir, "application.js"), text);
});
