/**
 * Java reads name no method (test/fixtures/magellan/java-reads, commons-io's shapes). An array's
 * `.length` read through a call's result (`FileUtils.readFileToByteArray(name).length`) was
 * `imported` to `IOUtils.length(byte[])`: the head `FileUtils` was taken to stand for any
 * same-named symbol of its package; `zeros.length` and `array.length` were guesses at the same
 * method. So splice's rename of `IOUtils.length` would rename the first silently and refused for
 * the others (commons-io: 746 name-only locations). A Java read or write never names a method (a
 * method reference `Foo::bar` is a call), and a qualifier that goes past an imported class
 * (`Cls.m().x`, `Cls.builder().setX()`) no longer stands for the class's package (real
 * tree-sitter, real SQLite, javac).
 */
import assert from "node:assert/strict";
import { it } from "node:test";
import { runTool } from "../support/run.js";
import { copyFixture, mg, refLines } from "./support.js";

it("Java: an array's .length is no reference to a length() method, and splice renames the method's calls only", async () => {
  const root = copyFixture("java-reads");
  assert.equal((await mg(root, ["index"])).r.code, 0);
  const rows = refLines(root, "r.name = 'length'");
  assert.deepEqual(rows, [
    "src/main/java/org/acme/io/IOUtils.java:5 array.length unresolved -",
    "src/main/java/org/acme/io/build/Origin.java:10 FileUtils.readFileToByteArray(name).length unresolved -",
    "src/main/java/org/acme/io/build/Origin.java:10 zeros.length unresolved -",
    "src/main/java/org/acme/io/build/Origin.java:10 IOUtils.length imported org.acme.io.IOUtils.length",
  ]);
  const r = await runTool("splice", ["rename", "--file", "src/main/java/org/acme/io/IOUtils.java", "--symbol", "IOUtils.length", "--to", "lengthOf", "--dry-run", "--root", root], { cwd: root });
  const out = r.json as { status: string; result: { steps: { locations: { file: string; byte_start: number; evidence: string }[] }[] } };
  assert.equal(out.status, "ok", r.stdout);
  assert.deepEqual(
    out.result.steps[0]?.locations.map((l) => `${l.file} ${l.evidence}`),
    ["src/main/java/org/acme/io/IOUtils.java exact", "src/main/java/org/acme/io/build/Origin.java imported"],
  );
});
