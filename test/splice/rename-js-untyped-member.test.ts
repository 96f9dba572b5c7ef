/**
 * JavaScript member assigned to an object the checker types as `any`, shaped like express's
 * lib/response.js: `var res = Object.create(http.ServerResponse.prototype)` (Object.create returns
 * `any`), then `res.sendStatus = function sendStatus(…) {…}`, called as `res.sendStatus(201)` in
 * the tests on a callback's untyped parameter.
 *
 * Before: SPLICE_E205 "the TypeScript language service refuses to rename 'sendStatus': You cannot
 * rename this element", remediation "Rename a symbol declared in the workspace (not in a library
 * …)", though it is declared in the workspace, and no flag could rename it. Now the rename falls
 * back to magellan's index, like a language without a server: the calls tied by name only are
 * listed (SPLICE_E203) and renamed with --allow-heuristic, with a SPLICE_W212 saying why.
 */
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { indexTree } from "../../src/graph/ingest.js";
import { planRename } from "../../src/tools/splice/rename/index.js";
import { isToolError } from "./rename-errors.js";
import { applyLocations, copyFixture, targetAt } from "./rename-helpers.js";

const made: string[] = [];
after(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

describe("splice rename, JavaScript: a member assigned to an untyped object (express's res.sendStatus)", () => {
  it("lists the uses tied by name, and renames them with allowHeuristic, instead of refusing the member", async () => {
    const root = copyFixture("js-untyped-member");
    made.push(root);
    await indexTree({ root, dbPath: join(root, ".magellan", "code.db") });
    const target = targetAt(root, "lib/response.js", "javascript", "res.sendStatus = ", "sendStatus");
    await assert.rejects(
      planRename({ root, target, newName: "sendCode" }),
      (e: unknown) =>
        isToolError(e, "SPLICE_E203", /would touch 2 location\(s\) tied to it by name only: test\/res\.sendStatus\.js:12, test\/res\.sendStatus\.js:22$/) &&
        /assigned to 'res', which has no type \(any\)/.test((e as { note?: string }).note ?? ""),
    );
    const plan = await planRename({ root, target, newName: "sendCode", allowHeuristic: true });
    assert.equal(plan.engine, "magellan-index");
    assert.deepEqual(
      plan.locations.map((l) => `${l.file} ${l.evidence}`),
      ["lib/response.js exact", "test/res.sendStatus.js heuristic", "test/res.sendStatus.js heuristic"],
    );
    const note = plan.diagnostics.find((d) => d.code === "SPLICE_W212");
    assert.match(note?.message ?? "", /assigned to 'res', which has no type \(any\)/);
    const after = applyLocations(root, plan.locations);
    assert.match(after.get("lib/response.js") ?? "", /\nres\.sendCode = function sendStatus\(statusCode\) \{/);
    assert.equal((after.get("test/res.sendStatus.js") ?? "").match(/res\.sendCode\(/g)?.length, 2);
  });

  it("still refuses, with the language service's reason, a name it cannot rename for another reason", async () => {
    const root = copyFixture("js-untyped-member");
    made.push(root);
    await indexTree({ root, dbPath: join(root, ".magellan", "code.db") });
    // `Object.create`: the standard library's, no assignment to an untyped object
    const target = targetAt(root, "lib/response.js", "javascript", "Object.create(", "create");
    await assert.rejects(planRename({ root, target, newName: "make" }), (e: unknown) => isToolError(e, "SPLICE_E205", /refuses to rename 'create'/));
  });
});
