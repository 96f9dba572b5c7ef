/**
 * References through what an import brings in, in the shapes real code writes them (found on
 * guice, requests and fd): a Java class imported by name (the imports table holds its package and
 * its name), a Python module imported from its package (`from . import sessions`), a Rust module
 * brought in by `use crate::output`. All three stayed unresolved before. Each must resolve to the symbol of the imported file, and an
 * incremental run that adds a class to the Java package must end with a rebuild's graph
 * (real tree-sitter, real SQLite).
 */
import assert from "node:assert/strict";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import Database from "better-sqlite3";
import { tempDir, writeTree } from "../support/run.js";
import { graphOf, mg } from "./support.js";

const FILES: Record<string, string> = {
  "core/src/com/acme/util/Helper.java": "package com.acme.util;\n\npublic class Helper {\n  public static int help() {\n    return 1;\n  }\n}\n",
  "core/src/com/acme/app/Main.java":
    "package com.acme.app;\n\nimport com.acme.util.Helper;\n\npublic class Main {\n  public int run() {\n    Helper h = null;\n    return Helper.help();\n  }\n}\n",
  // requests' shape: a src layout, `from . import sessions` beside `from .models import Response`.
  "pyproject.toml": '[project]\nname = "reqs"\n',
  "src/reqs/__init__.py": "",
  "src/reqs/sessions.py": "class Session:\n    def send(self):\n        return 1\n",
  "src/reqs/models.py": "class Response:\n    pass\n",
  "src/reqs/api.py": "from . import sessions\nfrom .models import Response\n\n\ndef request():\n    return sessions.Session()\n",
  "tests/test_api.py": "import reqs\n",
  // fd's shape: `use crate::output;` in a module that is not the crate root.
  "crate/Cargo.toml": '[package]\nname = "demo"\nversion = "0.1.0"\nedition = "2021"\n',
  "crate/src/main.rs": "mod output;\nmod walk;\n\nfn main() {\n    walk::walk();\n}\n",
  "crate/src/output.rs": "pub fn print_entry() {}\n",
  "crate/src/walk.rs": "use crate::output;\n\npub fn walk() {\n    output::print_entry();\n}\n",
};

/** How the references named `name` in `file` resolved, with their target's file. */
function outcomes(db: string, file: string, name: string): [string, string | null][] {
  const d = new Database(db, { readonly: true });
  try {
    return d
      .prepare(
        `SELECT r.resolution, t.path FROM refs r JOIN files f ON f.id = r.file_id
         LEFT JOIN symbols s ON s.symbol_id = r.target_symbol_id LEFT JOIN files t ON t.id = s.file_id
         WHERE f.path = ? AND r.name = ? ORDER BY r.byte_start`,
      )
      .raw()
      .all(file, name) as [string, string | null][];
  } finally {
    d.close();
  }
}

describe("references through an imported module or class", () => {
  const root = writeTree(tempDir("magellan-heads-"), FILES);
  const db = join(root, ".magellan", "code.db");

  it("resolve to the imported file's symbols", async () => {
    const r = await mg(root, ["index"]);
    assert.equal(r.r.code, 0, r.r.stdout);
    const helper = "core/src/com/acme/util/Helper.java";
    // `Helper h` and `Helper.help()`: the class and its method, through `import com.acme.util.Helper`.
    assert.deepEqual(outcomes(db, "core/src/com/acme/app/Main.java", "Helper"), [
      ["imported", helper],
      ["imported", helper],
      ["imported", helper],
    ]);
    assert.deepEqual(outcomes(db, "core/src/com/acme/app/Main.java", "help"), [["imported", helper]]);
    assert.deepEqual(outcomes(db, "src/reqs/api.py", "Session"), [["imported", "src/reqs/sessions.py"]]);
    assert.deepEqual(outcomes(db, "crate/src/walk.rs", "print_entry"), [["imported", "crate/src/output.rs"]]);
  });

  it("an incremental run that adds and removes classes of the imported package ends with a rebuild's graph", async () => {
    const other = join(root, "core/src/com/acme/util/Other.java");
    for (const step of ["add", "remove"]) {
      if (step === "add") writeFileSync(other, "package com.acme.util;\n\npublic class Other {\n  public static int help() {\n    return 2;\n  }\n}\n");
      else rmSync(join(root, "core/src/com/acme/util/Helper.java"));
      const inc = await mg(root, ["index"]);
      assert.equal(inc.env.data.mode, "incremental", step);
      const fresh = join(root, `fresh-${step}.db`);
      assert.equal((await mg(root, ["index", "--rebuild", "--db", fresh])).r.code, 0);
      assert.deepEqual(graphOf(db), graphOf(fresh), `after the ${step}`);
    }
    // With Helper.java gone, `Helper.help()` has no target in the repository.
    assert.deepEqual(
      outcomes(db, "core/src/com/acme/app/Main.java", "help").map(([how]) => how),
      ["unresolved"],
    );
  });
});

it("a Java file reaches the classes it imports by name, not the other classes of their package", async () => {
  // `x.help()` on a value of unknown type: a guess among the members in reach. Helper is
  // imported; Other, of the same package, is not, so its help() is no candidate.
  const root = writeTree(tempDir("magellan-reach-"), {
    "src/com/acme/util/Helper.java": "package com.acme.util;\n\npublic class Helper {\n  public int help() {\n    return 1;\n  }\n}\n",
    "src/com/acme/util/Other.java": "package com.acme.util;\n\npublic class Other {\n  public int help() {\n    return 2;\n  }\n}\n",
    "src/com/acme/app/Use.java":
      "package com.acme.app;\n\nimport com.acme.util.Helper;\n\npublic class Use {\n  public int run(Helper h) {\n    var x = h;\n    return x.help();\n  }\n}\n",
  });
  const r = await mg(root, ["index"]);
  assert.equal(r.r.code, 0, r.r.stdout);
  assert.deepEqual(outcomes(join(root, ".magellan", "code.db"), "src/com/acme/app/Use.java", "help"), [["heuristic", "src/com/acme/util/Helper.java"]]);
});

it("a Java class of the file's own package, named without an import, is as sure as an imported one", async () => {
  // commons-lang's `StringUtils.isBlank(cs)` in Validate.java and in the package's tests (another
  // source root) were guesses, so splice's rename of isBlank needed --allow-heuristic.
  const root = writeTree(tempDir("magellan-package-"), {
    "src/main/java/com/acme/util/Strings.java": "package com.acme.util;\n\npublic class Strings {\n  public static boolean blank(String s) {\n    return s.isEmpty();\n  }\n}\n",
    "src/main/java/com/acme/util/Check.java": "package com.acme.util;\n\npublic class Check {\n  public static String notBlank(String s) {\n    Strings none = null;\n    return Strings.blank(s) ? null : s;\n  }\n}\n",
    "src/test/java/com/acme/util/StringsTest.java": "package com.acme.util;\n\npublic class StringsTest {\n  void test() {\n    assert Strings.blank(\"\");\n  }\n}\n",
    // Two classes of one name in the package (main and test roots): still a guess.
    "src/main/java/com/acme/util/Twice.java": "package com.acme.util;\n\npublic class Twice {\n  public static int once() {\n    return 1;\n  }\n}\n",
    "src/test/java/com/acme/util/Twice.java": "package com.acme.util;\n\npublic class Twice {\n  public static int once() {\n    return 2;\n  }\n}\n",
    "src/main/java/com/acme/util/UseTwice.java": "package com.acme.util;\n\npublic class UseTwice {\n  int run() {\n    return Twice.once();\n  }\n}\n",
  });
  const r = await mg(root, ["index"]);
  assert.equal(r.r.code, 0, r.r.stdout);
  const db = join(root, ".magellan", "code.db");
  assert.deepEqual(outcomes(db, "src/main/java/com/acme/util/Check.java", "blank"), [["imported", "src/main/java/com/acme/util/Strings.java"]]);
  assert.deepEqual(outcomes(db, "src/main/java/com/acme/util/Check.java", "Strings").map(([how]) => how), ["imported", "imported"]);
  assert.deepEqual(outcomes(db, "src/test/java/com/acme/util/StringsTest.java", "blank"), [["imported", "src/main/java/com/acme/util/Strings.java"]]);
  assert.deepEqual(outcomes(db, "src/main/java/com/acme/util/UseTwice.java", "once").map(([how]) => how), ["heuristic"]);
});
